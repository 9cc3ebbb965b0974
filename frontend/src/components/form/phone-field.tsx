import { observer } from 'mobx-react-lite';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

import { areaDigits, INPUT_LIMITS } from '@/lib/validation';
import { useStores } from '@/stores/root-store';
import type { Area } from '@/types/api';

import './form.css';

export interface PhoneValue {
  areaId: number | null;
  /** Dialling code, digits only. */
  areaCode: string;
  mobile: string;
}

/** The area whose dialling code was typed (the first, when several share it: US and Canada). */
export function areaByCode(areas: Area[], code: string): Area | undefined {
  return areas.find((a) => a.global_code === code);
}

/**
 * A phone number with its country: pick the country, or type its dialling code (digits only,
 * spec §5) and the first country with that code is picked.
 */
export const PhoneField = observer(function PhoneField({
  value,
  onChange,
}: {
  value: PhoneValue;
  onChange: (value: PhoneValue) => void;
}) {
  const { t } = useTranslation();
  const { content } = useStores();
  const areas = content.areas;

  useEffect(() => {
    void content.loadAreas();
  }, [content]);

  useEffect(() => {
    // Default country: the first one once the list is in (unless a code is being typed).
    if (value.areaId === null && !value.areaCode && areas[0]) {
      onChange({ ...value, areaId: areas[0].id, areaCode: areas[0].global_code });
    }
  }, [areas, value, onChange]);

  return (
    <div className="phone-field">
      <select className="input area-select" aria-label={t('auth.country')} value={value.areaId ?? ''}
        onChange={(e) => {
          const area = areas.find((a) => a.id === Number(e.target.value));
          if (area) onChange({ ...value, areaId: area.id, areaCode: area.global_code });
        }}>
        {value.areaId === null && <option value="">+{value.areaCode}</option>}
        {areas.map((a) => (
          <option key={a.id} value={a.id}>
            {a.name} +{a.global_code}
          </option>
        ))}
      </select>
      <div className="input-group">
        <span className="prefix">+</span>
        <input className="input area-code" inputMode="numeric" aria-label={t('auth.areaCode')} value={value.areaCode}
          data-testid="area-code"
          onChange={(e) => {
            const code = areaDigits(e.target.value);
            onChange({ ...value, areaCode: code, areaId: areaByCode(areas, code)?.id ?? null });
          }} />
        <input className="input" type="tel" inputMode="numeric" autoComplete="tel-national" name="mobile"
          placeholder={t('auth.phonePlaceholder')} aria-label={t('auth.phone')} value={value.mobile}
          maxLength={INPUT_LIMITS.mobile} data-testid="account"
          onChange={(e) => onChange({ ...value, mobile: e.target.value.replace(/\s+/g, '') })} />
      </div>
    </div>
  );
});
