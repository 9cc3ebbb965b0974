import { makeAutoObservable, runInAction } from 'mobx';

import type { AdminTransport } from '../api/admin-client';
import type { MoveReport, PlacedPair, Placement } from '../api/types';
import { messageOf, Resource } from './resource';

/** What became of the last move of a pair, for the row's message. */
export type MoveState = 'idle' | 'sending' | 'moved' | 'failed';

/** A symbol as it appears in test ids and element names: `BTC/USDT` is `BTC-USDT`. */
export function slug(symbol: string): string {
  return symbol.replace('/', '-');
}

/**
 * The markets role's pair placement: the cluster's nodes with the pairs each runs, and moving one
 * pair's actor to another node (paused about a second, no order lost); the server answers the move's
 * report, kept beside the pair, and the view is read again either way.
 */
export class PlacementStore {
  readonly view: Resource<Placement>;
  states = new Map<string, MoveState>();
  reports = new Map<string, MoveReport>();
  errors = new Map<string, string>();

  constructor(private readonly api: AdminTransport) {
    this.view = new Resource(() => this.api.get<Placement>('placement'));
    makeAutoObservable(this, {}, { autoBind: true });
  }

  stateOf(symbol: string): MoveState {
    return this.states.get(symbol) ?? 'idle';
  }

  /** The nodes a pair could move to: every node but the one it runs on. */
  targetsFor(pair: PlacedPair): string[] {
    return (this.view.data?.nodes ?? []).map((n) => n.name).filter((name) => name !== pair.node);
  }

  /** Moves `symbol`'s actor to the node named `node`, with the reason; true when the server did. */
  async move(symbol: string, node: string, reason: string): Promise<boolean> {
    this.states.set(symbol, 'sending');
    this.errors.delete(symbol);
    this.reports.delete(symbol);
    let done = false;
    try {
      const report = await this.api.post<MoveReport>('placement/move', { symbol, node, reason });
      runInAction(() => {
        this.reports.set(symbol, report);
        this.states.set(symbol, 'moved');
      });
      done = true;
    } catch (error) {
      runInAction(() => {
        this.errors.set(symbol, messageOf(error));
        this.states.set(symbol, 'failed');
      });
    }
    // A failed move may still have left the pair elsewhere or paused: read the cluster again.
    await this.view.load();
    return done;
  }
}
