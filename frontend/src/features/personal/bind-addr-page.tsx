/** /personal/bindAddr: currency, chain when there is more than one, address, bind (spec "Assets area"). */
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';

import { FormError } from '@/components/form/form-error';

import { PersonalForm, PersonalFormPage } from './components/personal-layout';
import { TextField } from './components/text-field';
import { BindAddressStore } from './stores/profile-stores';
import { useLoadedPersonalStore } from './stores/use-personal-store';

export default observer(function BindAddrPage() {
  const { t } = useTranslation('personal');
  const store = useLoadedPersonalStore((api) => new BindAddressStore(api));
  return (
    <PersonalFormPage title={t('bindAddr.title')} testId="bind-addr" loader={store}>
      {store.status === 'ready' && (
        <PersonalForm testId="bind-addr-form" onSubmit={() => store.bind()}>
          <label className="field">
            <span>{t('bindAddr.currency')}</span>
            <select className="input" value={store.currencyId ?? ''} data-testid="bind-addr-currency"
              onChange={(e) => store.setCurrency(Number(e.target.value))}>
              {store.currencies.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.code}
                </option>
              ))}
            </select>
          </label>
          {store.protocols.length > 1 && (
            <label className="field">
              <span>{t('bindAddr.chain')}</span>
              <select className="input" value={store.protocolId ?? ''} data-testid="bind-addr-chain"
                onChange={(e) => store.setProtocol(Number(e.target.value))}>
                {store.protocols.map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.chain_protocol?.code ?? store.currency?.code}
                  </option>
                ))}
              </select>
            </label>
          )}
          <TextField label={t('bindAddr.address')} value={store.address} maxLength={128}
            placeholder={t('bindAddr.p_addr')} onChange={(v) => store.setAddress(v)} testId="bind-addr-address" />
          <FormError message={store.problem ? t('bindAddr.p_addr') : null} />
          <button type="submit" className="button" data-testid="submit">
            {t('bindAddr.submit')}
          </button>
        </PersonalForm>
      )}
      {store.bound.length > 0 && (
        <div className="table-wrap">
          <table className="data-table" data-testid="bound-addresses">
            <thead>
              <tr>
                <th>{t('bindAddr.currency')}</th>
                <th>{t('bindAddr.chain')}</th>
                <th>{t('bindAddr.address')}</th>
              </tr>
            </thead>
            <tbody>
              {store.bound.map((b) => (
                <tr key={b.id} data-testid="bound-address">
                  <td className="pair-base">{b.currency?.code}</td>
                  <td>{b.chain_protocol?.code}</td>
                  <td className="mono">{b.address}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </PersonalFormPage>
  );
});
