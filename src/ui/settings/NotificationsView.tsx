import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useEngine } from '../hooks/EngineContext';
import { PATHS } from '../routing/paths';
import { PanelHeader } from '../common/PanelHeader';
import { Switch } from './Switch';
import { useSettings } from './useSettings';
import './settings.css';

type Permission = NotificationPermission | 'unsupported';

const browserPermission = (): Permission =>
  typeof Notification === 'undefined' ? 'unsupported' : Notification.permission;

/**
 * Spec §2 notifications: enable, show preview, sound. Turning them on asks the browser from the click
 * (a user gesture, as browsers require). Turning them off turns preview and sound off too, and turning them
 * back on gives back what the user had (the engine's rule, rules/settings.ts): a note says so while they
 * are off, and a status line says what came back.
 */
export function NotificationsView() {
  const { t } = useTranslation();
  const engine = useEngine();
  const { settings, update } = useSettings();
  const [permission, setPermission] = useState<Permission>(browserPermission);
  // Turned back on from this view: the status line says what preview and sound are now.
  const [turnedOn, setTurnedOn] = useState(false);
  const titleId = useId();
  const state = (on: boolean) => t(on ? 'settings.stateOn' : 'settings.stateOff');

  const enable = (on: boolean) => {
    if (settings && on !== settings.notificationsEnable) setTurnedOn(on);
    update({ notificationsEnable: on });
    if (on && permission === 'default') {
      void Notification.requestPermission().then((answer) => {
        setPermission(answer);
        engine.setNotificationPermission(answer);
      });
    }
  };

  return (
    <section className="settings-panel" aria-labelledby={titleId}>
      <PanelHeader title={t('settings.notifications')} back={PATHS.settings} titleId={titleId} />
      {settings ? (
        <div className="settings-group">
          <Switch
            label={t('settings.notificationsEnable')}
            checked={settings.notificationsEnable}
            onChange={enable}
          />
          <Switch
            label={t('settings.notificationsShowPreview')}
            hint={t('settings.notificationsShowPreviewHint')}
            checked={settings.notificationsShowPreview}
            disabled={!settings.notificationsEnable}
            onChange={(notificationsShowPreview) => update({ notificationsShowPreview })}
          />
          <Switch
            label={t('settings.incomingMessagesSound')}
            checked={settings.incomingMessagesSound}
            disabled={!settings.notificationsEnable}
            onChange={(incomingMessagesSound) => update({ incomingMessagesSound })}
          />
          {settings.notificationsEnable ? null : <p className="settings-note">{t('settings.notificationsOffNote')}</p>}
          <p className="settings-status" role="status">
            {turnedOn && settings.notificationsEnable
              ? t('settings.notificationsBackOn', {
                  preview: state(settings.notificationsShowPreview),
                  sound: state(settings.incomingMessagesSound),
                })
              : null}
          </p>
          {settings.notificationsEnable && permission === 'default' ? (
            <div className="settings-note">
              <p>{t('settings.permissionDefault')}</p>
              <button type="button" className="mx-button" onClick={() => enable(true)}>
                {t('settings.permissionAsk')}
              </button>
            </div>
          ) : null}
          {settings.notificationsEnable && permission === 'denied' ? (
            <p className="settings-note" role="note">
              {t('settings.permissionDenied')}
            </p>
          ) : null}
          {permission === 'unsupported' ? (
            <p className="settings-note" role="note">
              {t('settings.permissionUnsupported')}
            </p>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}
