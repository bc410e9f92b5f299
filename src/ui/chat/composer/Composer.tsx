import { type ChangeEvent, type FormEvent, type KeyboardEvent, useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { firstValueFrom } from 'rxjs';
import type { AppSettings } from '../../../engine/api';
import { useEngine } from '../../hooks/EngineContext';
import { useQuery } from '../../hooks/useQuery';
import { errorText } from '../../common/errorText';
import { useChatUi } from '../ChatContext';
import { AttachmentChip } from './AttachmentChip';
import { ComposerPreview } from './ComposerPreview';
import { DropOverlay } from './DropOverlay';
import { PaperclipIcon } from './icons';
import { attachmentProblem, canSubmit, charactersLeft, enterAction, INPUT_MAX_HEIGHT_PX, type SendBlock, sendBlock } from './sendRules';
import { LengthCounter, tooLongText } from './LengthCounter';
import { useComposerFocus } from '../../keyboard/composerFocus';
import { useDraft } from './useDraft';
import './composer.css';

/**
 * The message input at the bottom of the chat view (spec §2, §5, §6): the text, the reply or edit
 * preview, the attachment and the send button; or, where the user may not write, why not.
 */
export function Composer() {
  const { t } = useTranslation();
  const { conversation, replyTo, editing } = useChatUi();
  const block = sendBlock(conversation, replyTo !== null || editing !== null);
  if (block) {
    return (
      <p className="composer-blocked" data-testid="composer-blocked">
        {blockText(block, t)}
      </p>
    );
  }
  return <ComposerForm key={conversation.id} />;
}

/** A computed length in pixels ('12.5px'), 0 for anything else ('normal'). */
const px = (value: string): number => parseFloat(value) || 0;

/** Literal keys, so the locale check sees every text used. */
function blockText(block: SendBlock, t: TFunction): string {
  switch (block) {
    case 'demo':
      return t('chatActions.composer.demoChat');
    case 'announcementsAdminsOnly':
      return t('chatActions.composer.announcementsAdminsOnly');
    case 'channelAdminsOnly':
      return t('chatActions.composer.channelAdminsOnly');
    case 'broadcastReplyOnly':
      return t('chatActions.composer.broadcastReplyOnly');
  }
}

function ComposerForm() {
  const { t, i18n } = useTranslation();
  const engine = useEngine();
  const ui = useChatUi();
  const { conversation, replyTo, editing, setReplyTo, setEditing } = ui;
  const conversationId = conversation.id;
  const settings = useQuery<AppSettings | null>((e) => e.settings(), [], null);
  const enterToSend = settings?.enterToSend ?? true;

  const [text, setText] = useState('');
  const textRef = useRef(text);
  textRef.current = text;
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const rootRef = useRef<HTMLFormElement>(null);
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  const typing = useCallback(() => document.activeElement === inputRef.current, []);
  const draft = useDraft(engine, conversationId, text, setText, { paused: editing !== null, typing });

  /** The chat UI state as it is now, for code that resumes after an await. */
  const latest = useRef({ replyTo, editing });
  latest.current = { replyTo, editing };
  const live = useRef(true);
  useEffect(() => {
    live.current = true;
    return () => {
      live.current = false;
    };
  }, []);

  // Editing puts the message's text in the input; leaving it gives back what was typed before (and a
  // file of a send refused during the edit).
  const stash = useRef<string | null>(null);
  const stashedFile = useRef<File | null>(null);
  const editingId = editing?.id ?? null;
  useEffect(() => {
    if (editingId === null || !editing) return;
    stash.current ??= textRef.current;
    setText(editing.message);
    setFile(null);
    setProblem(null);
    return () => {
      const before = stash.current;
      const file = stashedFile.current;
      stash.current = null;
      stashedFile.current = null;
      setText(before ?? '');
      if (file) setFile(file);
    };
    // Only a different message (or none) starts or ends an edit; a live update of the same one does not.
  }, [editingId]);

  useComposerFocus(conversationId, inputRef);

  // A failed send's Edit gives its text back here, ahead of anything typed since, with the cursor at its end.
  const { registerComposer } = ui;
  useEffect(() => {
    registerComposer((sent) => {
      const typed = textRef.current;
      const joined = typed === '' ? sent : `${sent}\n${typed}`;
      if (latest.current.editing) stash.current = `${sent}${stash.current ? `\n${stash.current}` : ''}`;
      else setText(joined);
      requestAnimationFrame(() => {
        const input = inputRef.current;
        if (!input) return;
        input.focus();
        input.setSelectionRange(sent.length, sent.length);
      });
    });
    return () => registerComposer(null);
  }, [registerComposer]);

  // Starting a reply or an edit (from the action menu) puts the cursor in the input, at the end.
  const replyId = replyTo?.id ?? null;
  useEffect(() => {
    const input = inputRef.current;
    if (!input || (replyId === null && editingId === null)) return;
    input.focus();
    const end = input.value.length;
    input.setSelectionRange(end, end);
  }, [replyId, editingId]);

  // Grows with the text up to 160 px (spec §9), then scrolls. The field's frame (its padding and rounded
  // border) is around the textarea, which is whole lines high: a scrolled line is cut at a straight edge
  // inside the frame, and one scrolled to the end shows its first line whole, never half under the border.
  useLayoutEffect(() => {
    const input = inputRef.current;
    const field = input?.parentElement;
    if (!input || !field) return;
    input.style.height = 'auto';
    const lineHeight = px(getComputedStyle(input).lineHeight) || 22;
    const box = getComputedStyle(field);
    const frame = px(box.paddingTop) + px(box.paddingBottom) + px(box.borderTopWidth) + px(box.borderBottomWidth);
    const maxLines = Math.max(1, Math.floor((INPUT_MAX_HEIGHT_PX - frame) / lineHeight));
    const lines = Math.max(1, Math.round(input.scrollHeight / lineHeight));
    // Whole pixels up: a fraction short would leave the text a hair taller than its box, and the browser
    // would scroll that hair to show the cursor, cutting the top of the first line.
    input.style.height = `${Math.ceil(Math.min(lines, maxLines) * lineHeight)}px`;
    input.style.overflowY = lines > maxLines ? 'auto' : 'hidden';
  }, [text]);

  const takeFile = useCallback(
    (chosen: File) => {
      const why = attachmentProblem(chosen);
      if (why) {
        setProblem(
          why === 'fileTooLarge' ? t('chatActions.composer.fileTooLarge') : t('chatActions.composer.fileTypeNotSupported'),
        );
        return;
      }
      setProblem(null);
      setFile(chosen);
      inputRef.current?.focus();
    },
    [t],
  );

  const onFileChosen = (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = event.target.files?.[0];
    // Cleared so choosing the same file again (after removing it) fires another change.
    event.target.value = '';
    if (chosen) takeFile(chosen);
  };

  const submit = async () => {
    if (busy) return;
    // Over the server's limit: say so where the text is, and keep it (docs/ui.md "Sending").
    const left = charactersLeft(text);
    if (left < 0 && (editing ? text.trim() !== '' : canSubmit(text, file !== null))) {
      setProblem(tooLongText(-left, t, i18n.language));
      return;
    }
    if (editing) {
      if (text.trim() === '') return;
      if (text === editing.message) {
        setEditing(null);
        return;
      }
      setBusy(true);
      try {
        await engine.editMessage(conversationId, editing.id, text);
        setProblem(null);
        setEditing(null);
      } catch (error) {
        setProblem(errorText(error, t));
      } finally {
        setBusy(false);
      }
      return;
    }
    if (!canSubmit(text, file !== null)) return;
    // The input empties at once, as in any messenger: the engine's outbox holds the message from here on.
    const sent = { text, file, replyTo };
    setBusy(true);
    setProblem(null);
    setText('');
    setFile(null);
    draft.cleared();
    try {
      await engine.sendMessage(conversationId, {
        text: sent.text.trim(),
        ...(sent.replyTo ? { quotedMessageId: sent.replyTo.id } : {}),
        ...(sent.file ? { file: sent.file } : {}),
      });
      // The reply preview goes only now: in a reply-only broadcast its end swaps the form for a notice,
      // which must not happen while the send can still be refused. An edit started meanwhile ended it.
      if (sent.replyTo && latest.current.replyTo?.id === sent.replyTo.id) setReplyTo(null);
    } catch (error) {
      giveBack(sent, errorText(error, t));
    } finally {
      if (live.current) setBusy(false);
    }
  };

  /**
   * A refused send (spec §8: with the server's error) gives back what was sent, ahead of anything typed
   * since: into the input, into what an edit started meanwhile will give back, or, when this form is
   * gone (another chat), into the conversation's draft.
   */
  const giveBack = (sent: { text: string; file: File | null }, message: string) => {
    const join = (typed: string) => (typed === '' ? sent.text : `${sent.text}\n${typed}`);
    if (!live.current) {
      void firstValueFrom(engine.drafts()).then((drafts) => engine.setDraft(conversationId, join(drafts[conversationId] ?? '')));
      return;
    }
    if (latest.current.editing) {
      stash.current = join(stash.current ?? '');
      stashedFile.current ??= sent.file;
    } else {
      setText(join);
      setFile((chosen) => chosen ?? sent.file);
    }
    setProblem(message);
  };

  const startEditingLatest = async () => {
    const id = await engine.editTarget(conversationId);
    if (id === null) return;
    const view = await firstValueFrom(engine.messages(conversationId));
    const message = view.messages.find((m) => m.id === id);
    if (message) setEditing(message);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    const action = enterAction(event.nativeEvent, enterToSend);
    if (action === 'send') {
      event.preventDefault();
      void submit();
      return;
    }
    if (event.key === 'ArrowUp' && text === '' && !file && !editing && !event.shiftKey && !event.altKey && !event.ctrlKey && !event.metaKey) {
      event.preventDefault();
      void startEditingLatest();
      return;
    }
    if (event.key === 'Escape' && (editing || replyTo)) {
      event.preventDefault();
      if (editing) setEditing(null);
      else setReplyTo(null);
    }
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void submit();
  };

  const ready = editing ? text.trim() !== '' : canSubmit(text, file !== null);
  const hintId = `composer-hint-${conversationId}`;
  const counterId = `composer-counter-${conversationId}`;
  const left = charactersLeft(text);
  return (
    <form ref={rootRef} className="composer" onSubmit={onSubmit}>
      <DropOverlay anchor={rootRef} enabled={!editing} onFile={takeFile} />
      {editing ? (
        <ComposerPreview
          kind="edit"
          message={editing}
          conversation={conversation}
          selfId={ui.selfId}
          onCancel={() => setEditing(null)}
        />
      ) : replyTo ? (
        <ComposerPreview
          kind="reply"
          message={replyTo}
          conversation={conversation}
          selfId={ui.selfId}
          onCancel={() => setReplyTo(null)}
        />
      ) : null}
      {file ? <AttachmentChip file={file} onRemove={() => setFile(null)} /> : null}
      {problem ? (
        <div className="composer-problem" role="alert">
          <span>{problem}</span>
          <button
            type="button"
            className="composer-icon-button"
            aria-label={t('chatActions.composer.dismissError')}
            onClick={() => setProblem(null)}
          >
            <span aria-hidden="true">✕</span>
          </button>
        </div>
      ) : null}
      <div className="composer-row">
        <button
          type="button"
          className="composer-icon-button composer-attach"
          aria-label={t('chatActions.composer.attach')}
          disabled={editing !== null}
          onClick={() => fileRef.current?.click()}
        >
          <PaperclipIcon />
        </button>
        <input ref={fileRef} type="file" accept="image/*,video/*" hidden onChange={onFileChosen} />
        {/* A label, so a press on the frame around the text puts the cursor in it too. */}
        <label className="composer-field">
          <textarea
            ref={inputRef}
            className="composer-input"
            rows={1}
            value={text}
            aria-label={t('chatActions.composer.label')}
            aria-describedby={`${hintId} ${counterId}`}
            aria-invalid={left < 0 || undefined}
            placeholder={t('chatActions.composer.placeholder')}
            onChange={(event) => setText(event.target.value)}
            onKeyDown={onKeyDown}
          />
        </label>
        <LengthCounter id={counterId} left={left} />
        <span id={hintId} className="composer-sr-only">
          {enterToSend ? t('chatActions.composer.hintEnter') : t('chatActions.composer.hintCtrlEnter')}
        </span>
        <button type="submit" className="composer-send" disabled={!ready || busy}>
          {editing ? t('chatActions.composer.save') : t('chatActions.composer.send')}
        </button>
      </div>
    </form>
  );
}
