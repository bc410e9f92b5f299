import { Fragment } from 'react';
import { useTranslation } from 'react-i18next';
import * as C from '../../protocol/constants';
import { BUILD_ENV, envEntries } from './buildEnv';

/** The spec §9 constants this build runs with, by their names in src/protocol/constants.ts. */
const CONSTANTS: [string, unknown][] = [
  ['BUILD_NUMBER', C.BUILD_NUMBER],
  ['CLIENT_VERSION', C.CLIENT_VERSION],
  ['PROTOCOL_VERSION', C.PROTOCOL_VERSION],
  ['X_FEATURES', C.X_FEATURES],
  ['RECONNECT_DELAY_MS', C.RECONNECT_DELAY_MS],
  ['DEFAULT_PING_INTERVAL_MS', C.DEFAULT_PING_INTERVAL_MS],
  ['PING_GRACE_MS', C.PING_GRACE_MS],
  ['MESSAGE_PAGE_SIZE', C.MESSAGE_PAGE_SIZE],
  ['POSTS_PAGE_SIZE', C.POSTS_PAGE_SIZE],
  ['COMMENTS_PAGE_SIZE', C.COMMENTS_PAGE_SIZE],
  ['PIN_LENGTH', C.PIN_LENGTH],
  ['NICKNAME_MAX', C.NICKNAME_MAX],
  ['NAME_MIN', C.NAME_MIN],
  ['NAME_MAX', C.NAME_MAX],
  ['AVATAR_MAX_BYTES', C.AVATAR_MAX_BYTES],
  ['ATTACHMENT_MAX_BYTES', C.ATTACHMENT_MAX_BYTES],
  ['EDIT_WINDOW_MS', C.EDIT_WINDOW_MS],
  ['COMMUNITY_COUNTRIES', C.COMMUNITY_COUNTRIES.join(', ')],
  ['QUICK_REACTIONS', C.QUICK_REACTIONS.join(' ')],
];

/**
 * A constant's name with a break opportunity after each underscore, so a narrow column wraps
 * DEFAULT_PING_INTERVAL_MS as "DEFAULT_PING_" / "INTERVAL_MS", never inside a word ("INTERVAL_M" / "S").
 */
function BreakableName({ name }: { name: string }) {
  const parts = name.split(/(?<=_)/);
  return (
    <>
      {parts.map((part, index) => (
        <Fragment key={index}>
          {index > 0 ? <wbr /> : null}
          {part}
        </Fragment>
      ))}
    </>
  );
}

function Table({ caption, rows }: { caption: string; rows: [string, unknown][] }) {
  const { t } = useTranslation();
  return (
    <table className="debug-table">
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">{t('debug.name')}</th>
          <th scope="col">{t('debug.value')}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map(([name, value]) => (
          <tr key={name}>
            <th scope="row">
              <code>
                <BreakableName name={name} />
              </code>
            </th>
            <td>
              <code>{String(value)}</code>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function ConstantsTable() {
  const { t } = useTranslation();
  return <Table caption={t('debug.constants')} rows={CONSTANTS} />;
}

export function EnvTable() {
  const { t } = useTranslation();
  return <Table caption={t('debug.env')} rows={envEntries(BUILD_ENV, t('debug.hidden'))} />;
}
