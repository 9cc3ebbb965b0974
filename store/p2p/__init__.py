"""The peer-to-peer fiat market: merchants (``merchants``), their ads (``ads``), escrow orders and
their state machine (``orders``), how orders read (``views``) and are pushed (``push``), and the
invariant (``audit``). Coins move only between users' legal accounts, each step one ledger batch."""
