import { describe, expect, it } from 'vitest';

import { changeClass } from '../change-class';

describe('changeClass', () => {
  it('colours a change up when ≥ 0, matching its plus sign', () => {
    expect(changeClass('0')).toBe('up');
    expect(changeClass('2')).toBe('up');
    expect(changeClass('-0.01')).toBe('down');
  });
});
