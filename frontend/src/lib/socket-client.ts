/**
 * The push (websocket) client itself, independent of the app: one `SocketClient` per link, with
 * its ping, reconnect, login and reference-counted subscriptions (the rules are listed in
 * `./socket.ts`, which makes the app's one client of it).
 */
// Depth messages carry a sequence number; the tracker tells a gap (refetch) from the next one.
export { SequenceTracker, type SequenceVerdict } from './sequence-tracker';

export const PING_INTERVAL_MS = 5_000;
export const RECONNECT_DELAY_MS = 30_000;
/** No message (not even a pong) for three pings: the link is dead even if no close event came. */
export const STALE_AFTER_MS = 3 * PING_INTERVAL_MS;
export const PING_MESSAGE = 'ping';

/** What the server pushes: JSON with a `type` field (decimals arrive as strings). */
export interface PushMessage {
  type: string;
  [field: string]: unknown;
}

export type MessageListener<T extends { type: string } = PushMessage> = (message: T) => void;

/** The part of the browser WebSocket this client uses (a fake one stands in for it in tests). */
export interface WebSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((event: Event) => void) | null;
  onclose: ((event: CloseEvent) => void) | null;
  onerror: ((event: Event) => void) | null;
  onmessage: ((event: MessageEvent) => void) | null;
}

export type WebSocketFactory = (url: string) => WebSocketLike;

export type SocketStatus = 'idle' | 'connecting' | 'open' | 'closed';

export interface StatusChange {
  status: SocketStatus;
  /** True when this `open` follows an earlier connection: pushes may have been missed meanwhile. */
  reconnected: boolean;
}

export interface SocketClientOptions {
  /** The ws(s):// address, or a function that finds it (may be async). */
  url: string | (() => string | Promise<string>);
  getToken?: () => string | null;
  createSocket?: WebSocketFactory;
  pingIntervalMs?: number;
  reconnectDelayMs?: number;
  staleAfterMs?: number;
  now?: () => number;
}

const OPEN = 1;

/** Push `type` of each channel root (`MARKET_DEPTH.BTC/USDT` → `market_depth`). */
const MESSAGE_TYPES: Record<string, string> = {
  DAY_MARKET: 'daymarket',
  MARKET_DEPTH: 'market_depth',
  GLOBAL_TX: 'global_tx',
  KLINE: 'kline',
  TX_SUBMIT: 'tx_submit',
  TX_MATCHED: 'tx_matched',
  LEVER_TRADE: 'lever_trade',
  LEVER_CLOSED: 'lever_closed',
  MICRO_CLOSED: 'micro_closed',
};

/** Splits `KLINE.BTC/USDT` into the message type it carries and the symbol it is filtered by. */
export function describeChannel(channel: string): { type: string; symbol: string | null } {
  const dot = channel.indexOf('.');
  const root = dot < 0 ? channel : channel.slice(0, dot);
  const symbol = dot < 0 ? null : channel.slice(dot + 1);
  return { type: MESSAGE_TYPES[root] ?? root.toLowerCase(), symbol };
}

function channelMatches(channel: string, message: PushMessage): boolean {
  const { type, symbol } = describeChannel(channel);
  return message.type === type && (symbol === null || message.symbol === symbol);
}

function parse(data: unknown): PushMessage | null {
  if (typeof data !== 'string') return null;
  try {
    const value: unknown = JSON.parse(data);
    if (typeof value === 'object' && value !== null && typeof (value as PushMessage).type === 'string') {
      return value as PushMessage;
    }
  } catch {
    /* not JSON: ignored */
  }
  return null;
}

export class SocketClient {
  private readonly options: SocketClientOptions;
  private readonly createSocket: WebSocketFactory;
  private readonly now: () => number;
  private ws: WebSocketLike | null = null;
  private state: SocketStatus = 'idle';
  private opens = 0;
  private stopped = true;
  /** channel → number of subscribers */
  private readonly channels = new Map<string, number>();
  private readonly channelListeners = new Map<string, Set<MessageListener>>();
  private readonly typeListeners = new Map<string, Set<MessageListener>>();
  private readonly statusListeners = new Set<(change: StatusChange) => void>();
  private pingTimer: ReturnType<typeof setInterval> | null = null;
  private reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  private lastMessageAt = 0;
  /** The token the open connection logged in with (null: none sent). */
  private loginToken: string | null = null;

  constructor(options: SocketClientOptions) {
    this.options = options;
    this.createSocket = options.createSocket ?? ((url) => new WebSocket(url));
    this.now = options.now ?? Date.now;
  }

  get status(): SocketStatus {
    return this.state;
  }

  /** Channels with at least one subscriber. */
  get subscriptions(): string[] {
    return [...this.channels.keys()];
  }

  /** Open the connection (idempotent). Subscribing connects by itself. */
  connect(): void {
    this.stopped = false;
    if (this.ws || this.state === 'connecting' || this.reconnectTimer) return;
    this.setStatus('connecting');
    let url: string | Promise<string>;
    try {
      url = typeof this.options.url === 'string' ? this.options.url : this.options.url();
    } catch {
      this.scheduleReconnect();
      return;
    }
    if (typeof url === 'string') this.open(url);
    else url.then((u) => this.open(u), () => this.scheduleReconnect());
  }

  /** Close for good (until `connect()`): no reconnect; subscriptions are kept for a later connect. */
  close(): void {
    this.stopped = true;
    this.clearTimers();
    const ws = this.ws;
    this.detach();
    ws?.close(1000, 'client closed');
    this.setStatus('idle');
  }

  /**
   * Subscribe to a channel; `listener` gets the messages of that channel (its type and, for
   * `ROOT.SYMBOL` channels, that symbol). Returns the unsubscribe function (call it once).
   */
  subscribe(channel: string, listener?: MessageListener): () => void {
    const count = this.channels.get(channel) ?? 0;
    this.channels.set(channel, count + 1);
    if (listener) {
      const set = this.channelListeners.get(channel) ?? new Set();
      set.add(listener);
      this.channelListeners.set(channel, set);
    }
    if (count === 0) this.send({ type: 'sub', params: channel });
    this.connect();

    let active = true;
    return () => {
      if (!active) return;
      active = false;
      if (listener) {
        const set = this.channelListeners.get(channel);
        set?.delete(listener);
        if (set?.size === 0) this.channelListeners.delete(channel);
      }
      const left = (this.channels.get(channel) ?? 1) - 1;
      if (left > 0) {
        this.channels.set(channel, left);
      } else {
        this.channels.delete(channel);
        this.send({ type: 'unsub', params: channel });
      }
    };
  }

  /** Listen to every message of one `type` (e.g. `login`, `pong`, `daymarket`). */
  on(type: string, listener: MessageListener): () => void {
    const set = this.typeListeners.get(type) ?? new Set();
    set.add(listener);
    this.typeListeners.set(type, set);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.typeListeners.delete(type);
    };
  }

  onStatus(listener: (change: StatusChange) => void): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  /**
   * Re-read the token and, when it changed, log the open connection in again (an empty token logs
   * out) and re-send the subscriptions, so user channels follow the new login.
   */
  syncLogin(): void {
    const token = this.options.getToken?.() || null;
    if (token === this.loginToken || !this.isOpen()) return;
    this.sendLogin(token ?? '');
    this.loginToken = token;
    this.resubscribe();
  }

  /** Skip the rest of the reconnect delay (e.g. the browser came back online). */
  reconnectNow(): void {
    if (!this.reconnectTimer) return;
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
    this.state = 'closed';
    this.connect();
  }

  // -- internals ------------------------------------------------------------------------------

  private open(url: string): void {
    if (this.stopped || this.ws) return;
    let ws: WebSocketLike;
    try {
      ws = this.createSocket(url);
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.ws = ws;
    ws.onopen = () => this.handleOpen();
    ws.onmessage = (event) => this.handleMessage(event.data);
    ws.onclose = () => this.handleClose();
    ws.onerror = () => {
      /* a close event follows */
    };
  }

  private handleOpen(): void {
    this.opens += 1;
    this.lastMessageAt = this.now();
    this.state = 'open'; // before sending: sendRaw only writes to an open link
    const token = this.options.getToken?.() || null;
    if (token) this.sendLogin(token);
    this.loginToken = token;
    this.resubscribe();
    this.startPing();
    this.setStatus('open', this.opens > 1);
  }

  private handleMessage(data: unknown): void {
    this.lastMessageAt = this.now();
    const message = parse(data);
    if (!message) return;
    for (const listener of [...(this.typeListeners.get(message.type) ?? [])]) listener(message);
    for (const [channel, listeners] of [...this.channelListeners]) {
      if (!channelMatches(channel, message)) continue;
      for (const listener of [...listeners]) listener(message);
    }
  }

  private handleClose(): void {
    this.detach();
    this.clearTimers();
    if (this.stopped) return;
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    this.ws = null;
    this.setStatus('closed');
    if (this.stopped || this.reconnectTimer) return;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      this.connect();
    }, this.options.reconnectDelayMs ?? RECONNECT_DELAY_MS);
  }

  private startPing(): void {
    const every = this.options.pingIntervalMs ?? PING_INTERVAL_MS;
    const staleAfter = this.options.staleAfterMs ?? STALE_AFTER_MS;
    this.pingTimer = setInterval(() => {
      if (this.now() - this.lastMessageAt > staleAfter) {
        // The browser may take minutes to notice a dead link; drop it now and reconnect.
        const ws = this.ws;
        this.handleClose();
        ws?.close(4000, 'no answer to ping');
        return;
      }
      this.sendRaw(PING_MESSAGE);
    }, every);
  }

  private resubscribe(): void {
    for (const channel of this.channels.keys()) this.send({ type: 'sub', params: channel });
  }

  private sendLogin(token: string): void {
    this.send({ type: 'login', token });
  }

  private send(message: Record<string, unknown>): void {
    this.sendRaw(JSON.stringify(message));
  }

  /** Sends only on an open link; whatever is missed is re-sent by `handleOpen`. */
  private sendRaw(text: string): void {
    if (!this.isOpen()) return;
    try {
      this.ws?.send(text);
    } catch {
      /* the close event follows */
    }
  }

  private isOpen(): boolean {
    return this.ws !== null && this.state === 'open' && this.ws.readyState === OPEN;
  }

  private detach(): void {
    if (!this.ws) return;
    this.ws.onopen = this.ws.onmessage = this.ws.onclose = this.ws.onerror = null;
    this.ws = null;
    this.loginToken = null;
  }

  private clearTimers(): void {
    if (this.pingTimer) clearInterval(this.pingTimer);
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.pingTimer = this.reconnectTimer = null;
  }

  private setStatus(status: SocketStatus, reconnected = false): void {
    if (status === this.state && status !== 'open') return;
    this.state = status;
    for (const listener of [...this.statusListeners]) listener({ status, reconnected });
  }
}
