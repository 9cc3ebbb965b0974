import type { TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';

import { recordName } from '../components/record-columns';
import type { AssetRecord } from '../types';

const t = ((key: string) => `<${key}>`) as unknown as TFunction<'wallet'>;
const record = (over: Partial<AssetRecord>): AssetRecord => ({ id: 1, value: '-100', created_at: 0, ...over });

describe('recordName', () => {
  it("names the earn products' movements when the server sends only their raw type", () => {
    expect(recordName(record({ log_type: 'lock_savings', notes: 'lock_savings' }), t)).toBe('<records.logTypes.lock_savings>');
    expect(recordName(record({ log_type: 'mining', notes: '' }), t)).toBe('<records.logTypes.mining>');
    expect(recordName(record({ log_type: 'shoufa', notes: 'shoufa' }), t)).toBe('<records.logTypes.shoufa>');
    expect(recordName(record({ log_type: 'listing', notes: 'listing' }), t)).toBe('<records.logTypes.listing>');
  });

  it("keeps the server's own name otherwise", () => {
    expect(recordName(record({ log_type: 'mining', notes: 'Minage' }), t)).toBe('Minage');
    expect(recordName(record({ log_type: 'transfer', notes: 'Transfer' }), t)).toBe('Transfer');
    expect(recordName(record({ log_type: 'weird', notes: null }), t)).toBe('--');
  });
});
