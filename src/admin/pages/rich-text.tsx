import { Suspense, lazy } from 'react';
import type { RichTextFieldProps } from './rich-text-field';

/**
 * Tiptap and ProseMirror, a chunk of their own, fetched as soon as the builder's code is (not at a
 * field's first render: a change made in a transition that shows a new field would wait for it).
 */
const editorChunk = import('./rich-text-field');
const Editor = lazy(() => editorChunk);

/**
 * The builder's rich-text field (rich-text-field.tsx, docs/decisions/033); until its editor has
 * arrived, its label over an empty, busy box.
 */
export function RichTextField(props: RichTextFieldProps) {
  return (
    <Suspense
      fallback={
        <div className="field rich-text">
          <span className="label">{props.label}</span>
          <div className="rich-text-content" aria-busy="true" />
        </div>
      }
    >
      <Editor {...props} />
    </Suspense>
  );
}
