import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import {
  describeChannel,
  PING_INTERVAL_MS,
  RECONNECT_DELAY_MS,
  securePushUrl,
  SequenceTracker,
  SocketClient,
  type StatusChange,
  type WebSocketLike,
} from '../socket';

/** Stands in for the browser WebSocket: records what is sent, lets the test open, push and drop. */
class FakeWebSocket implements WebSocketLike {
  readyState = 0;
  sent: string[] = [];
  closed = false;
  onopen: ((event: Event) => void) | null = null;
  onclose: ((event: CloseEvent) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  onmessage: ((event: MessageEvent) => void) | null = null;

  constructor(readonly url: string) {}

  send(data: string): void {
    if (this.readyState !== 1) throw new Error('not open');
    this.sent.push(data);
  }

  close(): void {
    this.closed = true;
    this.readyState = 3;
  }

  // -- test controls
  open(): void {
    this.readyState = 1;
    this.onopen?.({} as Event);
  }

  push(message: unknown): void {
    this.onmessage?.({ data: typeof message === 'string' ? message : JSON.stringify(message) } as MessageEvent);
  }

  drop(): void {
    this.readyState = 3;
    this.onclose?.({} as CloseEvent);
  }

  /** JSON messages sent, parsed. */
  get messages(): Record<string, unknown>[] {
    return this.sent.filter((s) => s.startsWith('{')).map((s) => JSON.parse(s) as Record<string, unknown>);
  }
}

let sockets: FakeWebSocket[];
let token: string | null;

function makeClient() {
  return new SocketClient({
    url: 'ws://push.example:8001/ws',
    getToken: () => token,
    createSocket: (url) => {
      const ws = new FakeWebSocket(url);
      sockets.push(ws);
      return ws;
    },
  });
}

function last(): FakeWebSocket {
  const ws = sockets.at(-1);
  if (!ws) throw new Error('no socket was created');
  return ws;
}

beforeEach(() => {
  vi.useFakeTimers();
  sockets = [];
  token = null;
});

afterEach(() => {
  vi.useRealTimers();
});

describe('SocketClient', () => {
  it('connects on the first subscription and sends sub once the link is open', () => {
    const client = makeClient();
    client.subscribe('DAY_MARKET');
    expect(sockets).toHaveLength(1);
    expect(last().url).toBe('ws://push.example:8001/ws');
    expect(last().sent).toEqual([]); // nothing is written before open

    last().open();
    expect(last().messages).toEqual([{ type: 'sub', params: 'DAY_MARKET' }]);
    expect(client.status).toBe('open');
  });

  it('logs in with the stored token before subscribing', () => {
    token = 'tok-1';
    const client = makeClient();
    client.subscribe('TX_SUBMIT');
    last().open();
    expect(last().messages).toEqual([
      { type: 'login', token: 'tok-1' },
      { type: 'sub', params: 'TX_SUBMIT' },
    ]);
  });

  it('sends a ping text every 5 seconds', () => {
    const client = makeClient();
    client.connect();
    last().open();
    vi.advanceTimersByTime(PING_INTERVAL_MS - 1);
    expect(last().sent).not.toContain('ping');
    vi.advanceTimersByTime(1);
    expect(last().sent.filter((s) => s === 'ping')).toHaveLength(1);
    last().push({ type: 'pong' });
    vi.advanceTimersByTime(PING_INTERVAL_MS);
    expect(last().sent.filter((s) => s === 'ping')).toHaveLength(2);
  });

  it('reconnects 30 seconds after a close, then logs in and re-subscribes', () => {
    token = 'tok-1';
    const client = makeClient();
    const statuses: StatusChange[] = [];
    client.onStatus((s) => statuses.push(s));
    client.subscribe('DAY_MARKET');
    client.subscribe('MARKET_DEPTH.BTC/USDT');
    last().open();
    last().drop();
    expect(client.status).toBe('closed');

    vi.advanceTimersByTime(RECONNECT_DELAY_MS - 1);
    expect(sockets).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(sockets).toHaveLength(2);

    last().open();
    expect(last().messages).toEqual([
      { type: 'login', token: 'tok-1' },
      { type: 'sub', params: 'DAY_MARKET' },
      { type: 'sub', params: 'MARKET_DEPTH.BTC/USDT' },
    ]);
    expect(statuses.filter((s) => s.status === 'open')).toEqual([
      { status: 'open', reconnected: false },
      { status: 'open', reconnected: true },
    ]);
  });

  it('keeps retrying every 30 seconds while the server is down', () => {
    const client = makeClient();
    client.connect();
    last().drop(); // refused before it opened
    vi.advanceTimersByTime(RECONNECT_DELAY_MS);
    expect(sockets).toHaveLength(2);
    last().drop();
    vi.advanceTimersByTime(RECONNECT_DELAY_MS);
    expect(sockets).toHaveLength(3);
  });

  it('drops a link that answers no ping and reconnects', () => {
    const client = makeClient();
    client.subscribe('DAY_MARKET');
    const first = last();
    first.open();
    // Silent server: no pong comes back.
    vi.advanceTimersByTime(4 * PING_INTERVAL_MS);
    expect(first.closed).toBe(true);
    expect(client.status).toBe('closed');
    vi.advanceTimersByTime(RECONNECT_DELAY_MS);
    expect(sockets).toHaveLength(2);
  });

  it('does not reconnect after close()', () => {
    const client = makeClient();
    client.connect();
    last().open();
    client.close();
    expect(last().closed).toBe(true);
    vi.advanceTimersByTime(RECONNECT_DELAY_MS * 2);
    expect(sockets).toHaveLength(1);
    expect(client.status).toBe('idle');
  });

  it('counts subscribers: unsub goes out when the last one leaves', () => {
    const client = makeClient();
    client.connect();
    last().open();
    const a = client.subscribe('KLINE.BTC/USDT');
    const b = client.subscribe('KLINE.BTC/USDT');
    expect(last().messages).toEqual([{ type: 'sub', params: 'KLINE.BTC/USDT' }]);
    a();
    a(); // calling twice changes nothing
    expect(last().messages).toHaveLength(1);
    b();
    expect(last().messages).toEqual([
      { type: 'sub', params: 'KLINE.BTC/USDT' },
      { type: 'unsub', params: 'KLINE.BTC/USDT' },
    ]);
    expect(client.subscriptions).toEqual([]);

    // A channel left while offline is not re-subscribed on reconnect.
    last().drop();
    vi.advanceTimersByTime(RECONNECT_DELAY_MS);
    last().open();
    expect(last().messages).toEqual([]);
  });

  it('dispatches messages by type, and channel listeners by type and symbol', () => {
    const client = makeClient();
    const depthBtc = vi.fn();
    const depthEth = vi.fn();
    const logins = vi.fn();
    client.subscribe('MARKET_DEPTH.BTC/USDT', depthBtc);
    client.subscribe('MARKET_DEPTH.ETH/USDT', depthEth);
    client.on('login', logins);
    last().open();

    const btc = { type: 'market_depth', symbol: 'BTC/USDT', depth: { seq: 1, in: [], out: [] } };
    last().push(btc);
    last().push({ type: 'login', code: 1, uid: 7 });
    last().push('not json');
    last().push({ no: 'type' });

    expect(depthBtc).toHaveBeenCalledExactlyOnceWith(btc);
    expect(depthEth).not.toHaveBeenCalled();
    expect(logins).toHaveBeenCalledExactlyOnceWith({ type: 'login', code: 1, uid: 7 });
  });

  it('stops calling a listener once its subscription is dropped', () => {
    const client = makeClient();
    const listener = vi.fn();
    const off = client.subscribe('DAY_MARKET', listener);
    last().open();
    off();
    last().push({ type: 'daymarket', currency_match_id: 1 });
    expect(listener).not.toHaveBeenCalled();
  });

  it('logs in again and re-subscribes when the token changes', () => {
    const client = makeClient();
    client.subscribe('TX_MATCHED');
    last().open();
    expect(last().messages).toEqual([{ type: 'sub', params: 'TX_MATCHED' }]);

    client.syncLogin(); // unchanged: nothing sent
    expect(last().messages).toHaveLength(1);

    token = 'tok-2';
    client.syncLogin();
    expect(last().messages.slice(1)).toEqual([
      { type: 'login', token: 'tok-2' },
      { type: 'sub', params: 'TX_MATCHED' },
    ]);

    token = null; // logout: an empty login drops the user channels on the server
    client.syncLogin();
    expect(last().messages.slice(3)).toEqual([
      { type: 'login', token: '' },
      { type: 'sub', params: 'TX_MATCHED' },
    ]);
  });

  it('waits for an async address before opening', async () => {
    let resolve!: (url: string) => void;
    const client = new SocketClient({
      url: () => new Promise<string>((r) => (resolve = r)),
      createSocket: (url) => {
        const ws = new FakeWebSocket(url);
        sockets.push(ws);
        return ws;
      },
    });
    client.subscribe('DAY_MARKET');
    expect(client.status).toBe('connecting');
    expect(sockets).toHaveLength(0);
    resolve('wss://push.example/ws');
    await vi.advanceTimersByTimeAsync(0);
    expect(last().url).toBe('wss://push.example/ws');
  });
});

describe('describeChannel', () => {
  it('maps channel roots to the pushed message types', () => {
    expect(describeChannel('DAY_MARKET')).toEqual({ type: 'daymarket', symbol: null });
    expect(describeChannel('MARKET_DEPTH.BTC/USDT')).toEqual({ type: 'market_depth', symbol: 'BTC/USDT' });
    expect(describeChannel('GLOBAL_TX.ETH/BTC')).toEqual({ type: 'global_tx', symbol: 'ETH/BTC' });
    expect(describeChannel('KLINE.BTC/USDT')).toEqual({ type: 'kline', symbol: 'BTC/USDT' });
    expect(describeChannel('TX_SUBMIT').type).toBe('tx_submit');
    expect(describeChannel('TX_MATCHED').type).toBe('tx_matched');
  });
});

describe('securePushUrl', () => {
  it('uses wss on an https page and leaves other addresses alone', () => {
    expect(securePushUrl('ws://ex.com:8001/ws', 'https:')).toBe('wss://ex.com:8001/ws');
    expect(securePushUrl('ws://ex.com:8001/ws', 'http:')).toBe('ws://ex.com:8001/ws');
    expect(securePushUrl('wss://ex.com/ws', 'https:')).toBe('wss://ex.com/ws');
  });
});

describe('SequenceTracker', () => {
  it('accepts the next number, reports gaps and ignores stale ones', () => {
    const seq = new SequenceTracker();
    expect(seq.accept(5)).toBe('next'); // no baseline yet: anything starts it
    expect(seq.accept(6)).toBe('next');
    expect(seq.accept(9)).toBe('gap');
    expect(seq.current).toBe(9);
    expect(seq.accept(8)).toBe('stale');
    expect(seq.accept(9)).toBe('stale');
    expect(seq.accept(10)).toBe('next');
  });

  it('follows a snapshot baseline', () => {
    const seq = new SequenceTracker();
    seq.reset(41);
    expect(seq.accept(42)).toBe('next');
    seq.reset(50);
    expect(seq.accept(51)).toBe('next');
  });

  it('treats a run of stale numbers as a restarted publisher', () => {
    const seq = new SequenceTracker(3);
    seq.reset(500);
    expect(seq.accept(1)).toBe('stale');
    expect(seq.accept(2)).toBe('stale');
    expect(seq.accept(3)).toBe('gap');
    expect(seq.accept(4)).toBe('next');
  });
});
