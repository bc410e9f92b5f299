import { useNavigate } from '@tanstack/react-router';
import { type FormEvent, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useEngine } from '../../hooks/EngineContext';
import { errorText } from '../../common/errorText';
import { Modal } from '../../common/Modal';
import { dateFormat } from '../../common/time';
import { MESSAGE_PARAM } from '../../inbox/messageHit';

/** YYYY-MM-DD of a date in the browser's time zone, as `<input type="date">` takes it. */
const isoDay = (date: Date) =>
  `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;

/** Counts the openings, so that each makes a history entry of its own (as a search hit's, ChatView). */
let openings = 0;

/**
 * "Go to date" (issue 24): the header's calendar button opens a dialog with a date field; the chat then opens
 * at the first message of that day, or of the next day that has one, the way a search hit opens it
 * (`?message=`). A day after the last message says so and stays open, to choose another.
 */
export function GoToDate({ conversationId }: { conversationId: number }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        className="chat-icon-button"
        onClick={() => setOpen(true)}
        aria-label={t('chat.goToDate.open')}
        title={t('chat.goToDate.open')}
        aria-haspopup="dialog"
        data-go-to-date=""
      >
        <CalendarIcon />
      </button>
      {open ? <GoToDateDialog conversationId={conversationId} onClose={() => setOpen(false)} /> : null}
    </>
  );
}

function GoToDateDialog({ conversationId, onClose }: { conversationId: number; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const engine = useEngine();
  const navigate = useNavigate();
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const today = isoDay(new Date());
  const [day, setDay] = useState(today);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) {
      setProblem(t('chat.goToDate.invalid'));
      return;
    }
    setBusy(true);
    setProblem(null);
    try {
      const messageId = await engine.findMessageAtDate(conversationId, day);
      if (messageId === null) {
        const [y, m, d] = day.split('-').map(Number) as [number, number, number];
        setProblem(t('chat.goToDate.none', { date: dateFormat(i18n.language, 'dayYear').format(new Date(y, m - 1, d)) }));
        return;
      }
      onClose();
      void navigate({
        to: '/inbox/$conversationId',
        params: { conversationId: String(conversationId) },
        search: { [MESSAGE_PARAM]: messageId },
        state: () => ({ messageOpening: ++openings }),
      });
    } catch (error) {
      setProblem(errorText(error, t));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal labelledBy={`${id}-title`} initialFocus={input} onClose={onClose} className="go-to-date">
      <form onSubmit={(event) => void submit(event)} noValidate>
        <h2 id={`${id}-title`}>{t('chat.goToDate.title')}</h2>
        <label className="go-to-date__field">
          <span>{t('chat.goToDate.label')}</span>
          <input
            ref={input}
            type="date"
            value={day}
            max={today}
            required
            onChange={(event) => {
              setDay(event.target.value);
              setProblem(null);
            }}
          />
        </label>
        {problem ? (
          <p className="modal__error" role="alert">
            {problem}
          </p>
        ) : null}
        <div className="modal__actions">
          <button type="button" className="mx-button" onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button type="submit" className="mx-button mx-button--primary" disabled={busy} aria-busy={busy || undefined}>
            {t('chat.goToDate.go')}
          </button>
        </div>
      </form>
    </Modal>
  );
}

function CalendarIcon() {
  return (
    <svg width="20" height="20" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path
        fill="currentColor"
        d="M7 2h2v2h6V2h2v2h3a1 1 0 0 1 1 1v15a1 1 0 0 1-1 1H4a1 1 0 0 1-1-1V5a1 1 0 0 1 1-1h3V2Zm12 8H5v9h14v-9ZM5 8h14V6H5v2Zm2 4h4v4H7v-4Z"
      />
    </svg>
  );
}
