import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { PATHS } from '../routing/paths';
import { PanelHeader } from '../common/PanelHeader';
import { HistoryKeptChoice } from './HistoryKeptChoice';
import { Switch } from './Switch';
import { useSettings } from './useSettings';
import './settings.css';

/** Spec §2 controls: enter-to-send; and how much history this device keeps (issue 13). */
export function ControlsView() {
  const { t } = useTranslation();
  const { settings, update } = useSettings();
  const titleId = useId();
  return (
    <section className="settings-panel" aria-labelledby={titleId}>
      <PanelHeader title={t('settings.controls')} back={PATHS.settings} titleId={titleId} />
      {settings ? (
        <div className="settings-group">
          <Switch
            label={t('settings.enterToSend')}
            hint={settings.enterToSend ? t('settings.enterToSendOn') : t('settings.enterToSendOff')}
            checked={settings.enterToSend}
            onChange={(enterToSend) => update({ enterToSend })}
          />
          <HistoryKeptChoice />
        </div>
      ) : null}
    </section>
  );
}
