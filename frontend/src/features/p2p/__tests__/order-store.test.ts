import { beforeEach, describe, expect, it, vi } from 'vitest';

import { fakeTransport } from '@/test/fake-transport';
import { setupScreenTests } from '@/test/screen-tests';

import { createP2pApi } from '../api/p2p-api';
import { EXPIRED_RETRY_MS, OrderStore } from '../stores/order-store';
import { detail } from './fixtures';

setupScreenTests();

let transport: ReturnType<typeof fakeTransport>;

beforeEach(() => {
  transport = fakeTransport();
});

async function opened(answer = detail(5)) {
  transport.answer('legal/order/detail', answer);
  const store = new OrderStore(createP2pApi(transport.api), 5);
  store.start();
  await vi.advanceTimersByTimeAsync(0);
  return store;
}

const detailReads = () => transport.get.mock.calls.filter(([path]) => path === 'legal/order/detail').length;

describe('OrderStore: the payment window', () => {
  it("counts down the server's remain_ms and reads the order again when it reaches 0", async () => {
    const store = await opened(detail(5, { remain_ms: 3_000 }));
    expect(store.secondsLeft).toBe(3);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(store.secondsLeft).toBe(2);
    expect(detailReads()).toBe(1);
    transport.answer('legal/order/detail', detail(5, { state: 4, cancel_kind: 'timeout', remain_ms: 0, actions: [] }));
    await vi.advanceTimersByTimeAsync(2_000);
    expect(detailReads()).toBe(2);
    expect(store.order?.state).toBe(4);
    expect(store.secondsLeft).toBeNull();
    await vi.advanceTimersByTimeAsync(30_000);
    expect(detailReads()).toBe(2); // cancelled: the clock stopped
    store.dispose();
  });

  it('asks again every few seconds while the server has not yet swept an expired window', async () => {
    const store = await opened(detail(5, { remain_ms: 0 }));
    expect(store.secondsLeft).toBe(0);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(detailReads()).toBe(2);
    await vi.advanceTimersByTimeAsync(EXPIRED_RETRY_MS - 1_000);
    expect(detailReads()).toBe(2);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(detailReads()).toBe(3);
    store.dispose();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(detailReads()).toBe(3);
  });

  it('shows no countdown once paid', async () => {
    const store = await opened(detail(5, { state: 2, remain_ms: null, actions: ['appeal'] }));
    expect(store.secondsLeft).toBeNull();
    store.dispose();
  });
});

describe('OrderStore: live', () => {
  it('reads the order again on a LEGAL_ORDER push for it, not for another order', async () => {
    const store = await opened();
    store.onPush(6);
    expect(detailReads()).toBe(1);
    transport.answer('legal/order/detail', detail(5, { state: 2, remain_ms: null, actions: ['appeal'] }));
    store.onPush(5);
    await vi.advanceTimersByTimeAsync(0);
    expect(store.order?.state).toBe(2);
    expect(store.can('paid')).toBe(false);
    store.onReconnected();
    expect(detailReads()).toBe(3);
    store.dispose();
  });
});

describe('OrderStore: actions', () => {
  it('offers only the actions the server lists', async () => {
    const store = await opened();
    store.ask('release');
    expect(store.dialog).toBeNull();
    store.ask('paid');
    expect(store.dialog).toBe('paid');
    store.dispose();
  });

  it('marks the order paid with the uploaded proof and shows the detail it answers', async () => {
    const store = await opened();
    transport.answer('common/image_upload', { url: '/uploads/proof.png' });
    transport.answer('legal/order/paid', detail(5, { state: 2, remain_ms: null, proof: '/uploads/proof.png', actions: ['appeal'] }));
    store.ask('paid');
    await store.uploadProof(new File(['x'], 'proof.png'));
    expect(await store.confirm()).toBe(true);
    expect(transport.post).toHaveBeenLastCalledWith(
      'legal/order/paid',
      { id: 5, proof: '/uploads/proof.png' },
      { loading: true, showMsg: true },
    );
    expect(store.dialog).toBeNull();
    expect(store.order?.state).toBe(2);
    expect(store.secondsLeft).toBeNull();
    expect(detailReads()).toBe(1); // the answer was the new detail
    store.dispose();
  });

  it('marks it paid without a proof when none was uploaded', async () => {
    const store = await opened();
    transport.answer('legal/order/paid', detail(5, { state: 2 }));
    store.ask('paid');
    await store.confirm();
    expect(transport.post).toHaveBeenLastCalledWith('legal/order/paid', { id: 5 }, { loading: true, showMsg: true });
    store.dispose();
  });

  it('releases with the deal password as pay_password, asking for it first', async () => {
    const store = await opened(detail(5, { role: 'seller', state: 2, remain_ms: null, actions: ['release', 'appeal'] }));
    store.ask('release');
    expect(await store.confirm()).toBe(false);
    expect(store.problem).toBe('password');
    expect(transport.post).not.toHaveBeenCalled();
    store.setPassword('123456');
    transport.answer('legal/order/release', detail(5, { role: 'seller', state: 3, actions: [] }));
    expect(await store.confirm()).toBe(true);
    expect(transport.post).toHaveBeenLastCalledWith(
      'legal/order/release',
      { id: 5, pay_password: '123456' },
      { loading: true, showMsg: true },
    );
    expect(store.password).toBe('');
    expect(store.order?.state).toBe(3);
    store.dispose();
  });

  it('keeps the dialog open when the server refuses (a wrong deal password)', async () => {
    const store = await opened(detail(5, { role: 'seller', state: 2, actions: ['release'] }));
    transport.answer('legal/order/release', new Error('wrong password'));
    store.ask('release');
    store.setPassword('000000');
    expect(await store.confirm()).toBe(false);
    expect(store.dialog).toBe('release');
    expect(store.busy).toBe(false);
    store.dispose();
  });

  it('appeals with a checked reason and up to 3 images', async () => {
    const store = await opened(detail(5, { state: 2, actions: ['appeal'] }));
    store.ask('appeal');
    store.setReason('short');
    expect(await store.confirm()).toBe(false);
    expect(store.problem).toBe('short');
    let n = 0;
    transport.answer('common/image_upload', () => ({ url: `/uploads/${++n}.png` }));
    for (let i = 0; i < 4; i += 1) await store.addImage(new File(['x'], 'e.png'));
    expect(store.images).toEqual(['/uploads/1.png', '/uploads/2.png', '/uploads/3.png']);
    store.removeImage('/uploads/2.png');
    store.setReason('  The seller does not release after my payment.  ');
    transport.answer('legal/order/appeal', detail(5, { state: 5, actions: [] }));
    expect(await store.confirm()).toBe(true);
    expect(transport.post).toHaveBeenLastCalledWith(
      'legal/order/appeal',
      { id: 5, reason: 'The seller does not release after my payment.', images: ['/uploads/1.png', '/uploads/3.png'] },
      { loading: true, showMsg: true },
    );
    expect(store.order?.state).toBe(5);
    store.dispose();
  });

  it('answers an appeal (the other side) with a checked reason, once', async () => {
    const store = await opened(detail(5, { role: 'seller', state: 5, actions: ['reply'] }));
    expect(store.can('reply')).toBe(true);
    store.ask('reply');
    store.setReason('no');
    expect(await store.confirm()).toBe(false);
    expect(store.problem).toBe('short');
    store.setReason('  No transfer reached my bank account.  ');
    transport.answer('legal/order/reply', detail(5, { role: 'seller', state: 5, actions: [] }));
    expect(await store.confirm()).toBe(true);
    expect(transport.post).toHaveBeenLastCalledWith(
      'legal/order/reply',
      { id: 5, reason: 'No transfer reached my bank account.', images: [] },
      { loading: true, showMsg: true },
    );
    expect(store.can('reply')).toBe(false);
    store.dispose();
  });

  it('cancels after the confirmation and reads the order when the answer has no detail', async () => {
    const store = await opened();
    transport.answer('legal/order/cancel', undefined);
    store.ask('cancel');
    transport.answer('legal/order/detail', detail(5, { state: 4, actions: [] }));
    expect(await store.confirm()).toBe(true);
    expect(transport.post).toHaveBeenLastCalledWith('legal/order/cancel', { id: 5 }, { loading: true, showMsg: true });
    expect(store.order?.state).toBe(4);
    store.dispose();
  });
});
