import { type HTMLAttributes, type ReactNode, type RefObject, useEffect, useRef } from 'react';
import { createPortal } from 'react-dom';
import { trapTab } from './useDismiss';
import './modal.css';

/**
 * The app's one modal dialog (native <dialog> opened with showModal: the page behind is inert). It is
 * named by `labelledBy` or `label`; focus starts on `initialFocus` (the safe choice, so an Enter pressed
 * by habit does nothing harmful), Tab cycles inside, Escape and a press on the backdrop call `onClose`
 * (Escape closes this dialog alone, not a panel behind it), and focus goes back to `returnFocus`, by
 * default what had it when the dialog opened.
 */
export function Modal(
  props: {
    label?: string;
    labelledBy?: string;
    describedBy?: string;
    initialFocus?: RefObject<HTMLElement | null>;
    returnFocus?: RefObject<HTMLElement | null>;
    onClose: () => void;
    /** Classes of the box inside (the area's own look); the backdrop is the <dialog> itself. */
    className?: string;
    /** Classes of the <dialog> element (e.g. another backdrop). */
    dialogClassName?: string;
    children: ReactNode;
  } & Pick<HTMLAttributes<HTMLDialogElement>, 'aria-busy'> & { 'data-state'?: string },
) {
  const { label, labelledBy, describedBy, initialFocus, returnFocus, onClose, className, dialogClassName, children } = props;
  const ref = useRef<HTMLDialogElement>(null);
  const closeRef = useRef(onClose);
  closeRef.current = onClose;
  useEffect(() => {
    const dialog = ref.current;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (dialog && !dialog.open) dialog.showModal();
    initialFocus?.current?.focus();
    return () => {
      dialog?.close();
      const back = returnFocus?.current ?? opener;
      if (back?.isConnected) back.focus();
    };
  }, [initialFocus, returnFocus]);
  return createPortal(
    <dialog
      ref={ref}
      className={dialogClassName ? `modal ${dialogClassName}` : 'modal'}
      aria-modal="true"
      aria-label={label}
      aria-labelledby={labelledBy}
      aria-describedby={describedBy}
      aria-busy={props['aria-busy']}
      data-state={props['data-state']}
      onKeyDown={(event) => {
        trapTab(event, ref.current);
        if (event.key !== 'Escape') return;
        event.preventDefault();
        event.stopPropagation();
        closeRef.current();
      }}
      onCancel={(event) => {
        event.preventDefault();
        closeRef.current();
      }}
      onClick={(event) => {
        // A modal's clicks are its own, not those of the component that opened it.
        event.stopPropagation();
        // The <dialog> itself is hit only on its backdrop: the box fills it.
        if (event.target === event.currentTarget) closeRef.current();
      }}
    >
      <div className={className ? `modal__box ${className}` : 'modal__box'}>{children}</div>
    </dialog>,
    document.body,
  );
}
