import type { MiningDetail, MiningOrder, MiningProduct } from '../types';

export const product = (id: number, over: Partial<MiningProduct> = {}): MiningProduct => ({
  id,
  title: `Pool ${id}`,
  logo: '',
  shouyi: '0.3-0.4',
  rate_min: '0.3',
  rate_max: '0.4',
  zhouqi: 30,
  mins: '100',
  maxs: '5000',
  penalty_rate: '0.4',
  status: 1,
  yuji: '10.5',
  ...over,
});

export const detail = (over: Partial<MiningDetail> = {}): MiningDetail => ({
  ...product(1),
  money: '1500.5',
  acb: '20',
  mvbt: '0',
  rate_today: null,
  ...over,
});

export const order = (id: number, over: Partial<MiningOrder> = {}): MiningOrder => ({
  id,
  product_id: 1,
  title: 'Pool 1',
  shouyi: '0.3-0.4',
  zhouqi: 10,
  times: 1_772_400_000_000,
  type: 1,
  currency_code: 'USDT',
  nums: '1000',
  days: 7,
  total: '24.5',
  penalty: '0',
  status: 0,
  end_date: '2026-03-12',
  ...over,
});

export const summary = { total: '1000', today: '3.5', shouyi: '24.5', nums: 1 };
