import type { i18n } from 'i18next';
import { useContext } from 'react';
import { getI18n, I18nContext } from 'react-i18next';

/**
 * The i18next instance itself, as I18nextProvider holds it. useTranslation hands out a copy whose `language`
 * is a snapshot of the render it was made in: what loads texts or switches the language reads the instance.
 */
export function useI18nInstance(): i18n {
  return (useContext(I18nContext) as { i18n?: i18n } | undefined)?.i18n ?? getI18n();
}
