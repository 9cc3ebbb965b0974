import { observer } from 'mobx-react-lite';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';

import { PRODUCT_KINDS, type AdminProduct, type ProductField } from '../api/types';
import { useAdmin } from '../stores/admin-store';
import { type Ask, SettingsRow, SettingsTable } from './settings-table';

/** Opening or closing a product, to confirm with a reason. */
type AskOpen = (product: AdminProduct, open: boolean) => void;

/** What the table shows of a product; the long texts (logo, description) only in the form. */
const LONG = new Set(['logo', 'desc']);
const NAME_FIELDS = ['name', 'title'];
/** The name first, then the state and the actions, then the terms (the table scrolls sideways). */
const leads = (field: ProductField) => NAME_FIELDS.includes(field.name);

/** A value as the table shows it: a time to the minute, in UTC (the form keeps it exact). */
function shown(field: ProductField, value: string): string {
  return field.type === 'time' ? `${value.replace('T', ' ').slice(0, 16)} UTC` : value;
}

function FieldInput({ field }: { field: ProductField }) {
  const { t } = useTranslation('admin');
  const { products } = useAdmin();
  const value = products.draft[field.name] ?? '';
  const locked = products.locked(field);
  const set = (text: string) => products.change(field.name, text);
  const common = { name: field.name, disabled: locked, title: locked ? t('products.fixedOnce') : undefined };
  let input;
  if (field.type === 'bool') {
    input = (
      <select {...common} value={value} onChange={(e) => set(e.target.value)}>
        {products.form?.mode === 'create' && <option value="">{t('products.byDefault')}</option>}
        <option value="true">{t('common.yes')}</option>
        <option value="false">{t('common.no')}</option>
      </select>
    );
  } else if (field.name === 'desc') {
    input = <textarea {...common} value={value} rows={3} maxLength={field.max ?? undefined} onChange={(e) => set(e.target.value)} />;
  } else {
    const numeric = field.type === 'int' ? 'numeric' : field.type === 'amount' ? 'decimal' : undefined;
    const hint = field.type === 'time' ? t('products.timeHint') : field.type === 'currency' ? 'USDT' : undefined;
    input = (
      <input {...common} value={value} inputMode={numeric} placeholder={hint} required={field.required && products.form?.mode === 'create'}
        maxLength={field.type === 'text' ? (field.max ?? undefined) : 64} onChange={(e) => set(e.target.value)} />
    );
  }
  return (
    <label className="adm-field">
      <span>
        {t(`products.field.${field.name}`, field.name)} <small className="adm-muted">{field.name}{field.required ? ' *' : ''}</small>
      </span>
      {input}
    </label>
  );
}

/** The create or edit form of the tab's kind: its fields, a reason, the server's refusal beside them. */
const ProductFormCard = observer(function ProductFormCard() {
  const { t } = useTranslation('admin');
  const { products } = useAdmin();
  const [reason, setReason] = useState('');
  const form = products.form!;
  const kindName = t(`products.kind.${products.kind}`);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void products.save(reason.trim()).then((done) => done && setReason(''));
  };
  const title = form.mode === 'create' ? t('products.createTitle', { kind: kindName }) : t('products.editTitle', { kind: kindName, id: form.id });
  return (
    <form className="adm-card adm-form" data-testid="products-form" onSubmit={submit}>
      <h2>{title}</h2>
      {form.mode === 'edit' && <p className="adm-muted">{t('products.editHint')}</p>}
      <div className="adm-fields">
        {products.fields.map((field) => <FieldInput key={field.name} field={field} />)}
      </div>
      <label className="adm-field">
        <span>{t('common.reason')}</span>
        <input name="reason" value={reason} onChange={(e) => setReason(e.target.value)} maxLength={500} />
      </label>
      {products.formState === 'failed' && (
        <p className="adm-error" role="alert" data-testid="products-form-error">{products.formError}</p>
      )}
      <div className="adm-actions">
        <button type="button" onClick={products.close}>{t('common.cancel')}</button>
        <button type="submit" className="adm-primary" data-testid="products-save"
          title={products.missing.length ? t('products.missing', { fields: products.missing.join(', ') }) : t('common.reasonRequired')}
          disabled={!products.ready || !reason.trim() || products.formState === 'sending'}>
          {form.mode === 'create' ? t('products.create') : t('common.save')}
        </button>
      </div>
    </form>
  );
});

const Row = observer(function Row({ product, columns, ask }: { product: AdminProduct; columns: ProductField[]; ask: AskOpen }) {
  const { t } = useTranslation('admin');
  const { products } = useAdmin();
  const state = products.stateOf(product.id);
  const busy = state === 'sending';
  const editing = products.form?.mode === 'edit' && products.form.id === product.id;
  const good = product.state === 'open';
  return (
    <SettingsRow testId={`products-row-${product.id}`} editing={editing}
      cells={
        <>
          <td>#{product.id}</td>
          {columns.filter(leads).map((f) => <td key={f.name}><b>{product.values[f.name]}</b></td>)}
          <td>
            <span className={good ? 'adm-badge' : 'adm-badge adm-bad'} data-testid={`products-state-${product.id}`}>
              {t(`products.state.${product.state}`)}
            </span>
          </td>
        </>
      }
      actions={
        <>
          <button type="button" disabled={busy || editing} data-testid={`products-edit-${product.id}`}
            onClick={() => products.startEdit(product)}>
            {t('products.edit')}
          </button>
          <button type="button" className="adm-primary" disabled={busy || !product.can_open}
            data-testid={`products-open-${product.id}`} onClick={() => ask(product, true)}>
            {t('products.open')}
          </button>
          <button type="button" className="adm-danger" disabled={busy || !product.can_close}
            data-testid={`products-close-${product.id}`} onClick={() => ask(product, false)}>
            {t('products.close')}
          </button>
        </>
      }
      outcome={state === 'failed' && (
        <p className="adm-error" role="alert" data-testid={`products-error-${product.id}`}>{products.errors.get(product.id)}</p>
      )}
      after={
        <>
          <td className="num">
            {product.orders}
            {product.subscribed !== undefined && <small className="adm-muted"> ({product.subscribed} {product.values.huodong})</small>}
            {product.applied !== undefined && <small className="adm-muted"> ({product.applied} USDT)</small>}
          </td>
          {columns.filter((f) => !leads(f)).map((f) => (
            <td key={f.name} className={f.type === 'amount' || f.type === 'int' ? 'num' : ''}>{shown(f, product.values[f.name] ?? '')}</td>
          ))}
        </>
      } />
  );
});

/** The products role's earn products: a tab per kind, the table, a form to create or edit, open and close. */
export const ProductsPage = observer(function ProductsPage() {
  const { t } = useTranslation('admin');
  const { products } = useAdmin();
  useEffect(() => void products.load(), [products]);
  const columns = products.fields.filter((f) => !LONG.has(f.name));
  const kindName = t(`products.kind.${products.kind}`);
  const asker = (ask: (question: Ask) => void): AskOpen => (product, open) =>
    ask({
      message: t(open ? 'products.confirmOpen' : 'products.confirmClose', {
        kind: kindName,
        id: product.id,
        name: product.values.name ?? product.values.title ?? '',
      }),
      confirm: (reason) => void products.setOpen(product.id, open, reason),
    });
  return (
    <>
      <div className="adm-filters" role="tablist">
        {PRODUCT_KINDS.map((kind) => (
          <button key={kind} type="button" role="tab" aria-selected={products.kind === kind} data-testid={`products-tab-${kind}`}
            className={products.kind === kind ? 'adm-primary' : ''} onClick={() => products.setKind(kind)}>
            {t(`products.kind.${kind}`)}
          </button>
        ))}
        <button type="button" data-testid="products-new" disabled={!products.kinds.data || products.form?.mode === 'create'}
          onClick={products.startCreate}>
          {t('products.new', { kind: kindName })}
        </button>
      </div>
      {products.kinds.error && <p className="adm-error">{products.kinds.error}</p>}
      {products.formState === 'saved' && products.savedId !== null && !products.form && (
        <p className="adm-ok" role="status" data-testid="products-saved">{t('products.saved', { kind: kindName, id: products.savedId })}</p>
      )}
      {products.form && <ProductFormCard />}
      <SettingsTable resource={products.list} testId="products-table"
        head={
          <>
            <th>{t('products.id')}</th>
            {columns.filter(leads).map((f) => <th key={f.name}>{t(`products.field.${f.name}`, f.name)}</th>)}
            <th>{t('products.stateTitle')}</th>
            <th />
            <th className="num">{t('products.orders')}</th>
            {columns.filter((f) => !leads(f)).map((f) => (
              <th key={f.name} className={f.type === 'amount' || f.type === 'int' ? 'num' : ''}>{t(`products.field.${f.name}`, f.name)}</th>
            ))}
          </>
        }
        row={(product, ask) => <Row key={product.id} product={product} columns={columns} ask={asker(ask)} />} />
    </>
  );
});
