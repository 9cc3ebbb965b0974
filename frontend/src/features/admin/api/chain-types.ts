/** What GET admin/chain answers: the chain watchers and the Signer's side of each chain. */

/** A chain watcher's status (the Chain page; `exchange chain status`). */
export interface ChainWatcherStatus {
  chain: string;
  node_height: number | null;
  cursor: number | null;
  lag: number | null;
  pending_deposits: number | null;
  error: string;
}

export interface UnconfirmedSend {
  withdrawal_id: number;
  txid: string;
  state: string;
  confirmations: number;
  attempts: number;
  error: string;
}

/** The Signer's side of one chain: hot wallet, what waits, the last sweep. */
export interface ChainSignerStatus {
  chain: string;
  error: string;
  /** The hot wallet's address (EVM, TRON) or the node wallet's name (UTXO): where an operator funds it. */
  hot_account?: string;
  hot_wallet?: Record<string, string>;
  approved_unsigned?: number;
  unconfirmed_withdrawals?: UnconfirmedSend[];
  last_sweep?: { swept: string[]; topped_up: string[]; below_minimum: number; excess: Record<string, string> } | null;
  sweep_error?: string;
}

export interface ChainStatus {
  watchers: ChainWatcherStatus[];
  signer: ChainSignerStatus[];
}
