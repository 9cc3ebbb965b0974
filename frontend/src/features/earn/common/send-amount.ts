import { runInAction } from 'mobx';

/** What the earn products' amount forms share: the typed amount and whether a send is under way. */
export interface AmountForm {
  amount: string;
  busy: boolean;
}

/**
 * Sends a checked amount, one send at a time: the form is busy meanwhile; once the server takes it
 * the amount is cleared and `reload` reads again what the send changed. True when the server took it
 * (a refusal is shown by the API client, and the amount stays for the user to correct).
 */
export async function sendAmount(
  form: AmountForm,
  send: () => Promise<unknown>,
  reload: () => Promise<unknown>,
): Promise<boolean> {
  form.busy = true;
  try {
    await send();
  } catch {
    runInAction(() => (form.busy = false));
    return false;
  }
  runInAction(() => {
    form.busy = false;
    form.amount = '';
  });
  await reload();
  return true;
}
