/**
 * The proof dialog of a closed second contract: reads `microtrade/proof` (public) and checks it in
 * the browser (lib/proof.ts: the hash chain with Web Crypto, the entry and exit ticks, the outcome
 * and the money), so the player need not take the server's word for the verdict.
 */
import { makeAutoObservable, observableRef, runInAction } from 'mobx';

import { isApiError } from '@/lib/api-client';

import type { MicroApi } from '../api/micro-api';
import { type Digest, type ProofCheck, verifyProof, webDigest } from '../lib/proof';
import type { SettledProof } from '../types';

export class ProofStore {
  /** The order whose proof is shown (null: the dialog is closed). */
  orderId: number | null = null;
  proof: SettledProof | null = null;
  check: ProofCheck | null = null;
  loading = false;
  /** The proof could not be read or checked; `problem` is the server's message when it gave one. */
  failed = false;
  problem: string | null = null;

  private readonly api: MicroApi;
  private readonly digest: Digest | null;
  private request = 0;

  /** `digest` defaults to Web Crypto's SHA-256 (null where the browser has none). */
  constructor(api: MicroApi, digest: Digest | null = webDigest()) {
    this.api = api;
    this.digest = digest;
    // The proof and its check are kept as they are (not deep-observable copies): the check's entry and
    // exit are the proof's own tick objects, which the dialog finds again by identity.
    makeAutoObservable<ProofStore, 'api' | 'digest' | 'request'>(this, {
      proof: observableRef,
      check: observableRef,
      api: false,
      digest: false,
      request: false,
    });
  }

  async open(orderId: number): Promise<void> {
    this.close();
    const request = this.request;
    this.orderId = orderId;
    this.loading = true;
    try {
      const proof = await this.api.proof(orderId);
      if (!proof?.verdict) throw new Error('no verdict'); // only a settled order has one
      const settled: SettledProof = { ...proof, verdict: proof.verdict };
      const check = await verifyProof(settled, this.digest);
      if (request !== this.request) return;
      runInAction(() => {
        this.proof = settled;
        this.check = check;
      });
    } catch (error) {
      if (request !== this.request) return;
      runInAction(() => {
        this.failed = true;
        this.problem = isApiError(error) ? error.message : null;
      });
    } finally {
      if (request === this.request) runInAction(() => (this.loading = false));
    }
  }

  /** Forget the shown proof (an answer still on its way is dropped). */
  close(): void {
    this.request += 1;
    this.orderId = null;
    this.proof = null;
    this.check = null;
    this.failed = false;
    this.problem = null;
    this.loading = false;
  }
}
