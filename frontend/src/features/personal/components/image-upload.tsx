import { useTranslation } from 'react-i18next';
import '../i18n';

/** An image picker that shows what was uploaded (the server answers its URL). */
export function ImageUpload({
  label,
  url,
  onFile,
  testId,
}: {
  label: string;
  url: string | undefined;
  onFile: (file: File) => void;
  testId: string;
}) {
  const { t } = useTranslation('personal');
  return (
    <label className="image-upload" data-testid={testId}>
      <span>{label}</span>
      <span className="image-box">
        {url ? <img src={url} alt={label} /> : <span className="muted">{t('upload.choose')}</span>}
      </span>
      <input type="file" accept="image/png,image/jpeg,image/gif,image/webp" className="visually-hidden"
        onChange={(e) => {
          const file = e.target.files?.[0];
          if (file) onFile(file);
          e.target.value = '';
        }} />
    </label>
  );
}
