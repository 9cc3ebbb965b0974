"""The Scheduler: calendar work (overnight fees, later accruals and maturities), durable and caught up."""
