import 'prosemirror-view/style/prosemirror.css';
import 'prosemirror-gapcursor/style/gapcursor.css';
import { EditorContent, useEditor as useTiptap, useEditorState, type Editor } from '@tiptap/react';
import Document from '@tiptap/extension-document';
import StarterKit from '@tiptap/starter-kit';
import { useEffect, type ReactNode } from 'react';
import { ALLOWED_SCHEMES } from '../../shared/sanitize-html';
import { asText, type DraftPath } from './draft';
import { FieldNotes, describedBy, useField } from './fields';

/**
 * The builder's rich-text field (docs/decisions/033): a page's HTML texts — a text block, a step's
 * footer, a checkbox's or a consent's label — edited as formatted text in Tiptap, never by typing
 * tags. Its marks and nodes are those the page's sanitiser keeps (src/shared/sanitize-html.ts):
 * paragraphs, headings 1–3, bold, italic, underline, strike-through, bulleted and numbered lists,
 * quotes, line breaks and links (http, https, mailto and tel only); code blocks are left out. The
 * draft keeps the HTML the editor writes; the JSON view still shows and takes it as HTML.
 */
export interface RichTextFieldProps {
  path: DraftPath;
  label: string;
  hint?: string;
  /** Empty removes the value. */
  optional?: boolean;
  /** `inline`: a label's text (a checkbox's, a consent's): one paragraph, no headings, lists or quotes. */
  inline?: boolean;
}

/** A label's document: one paragraph (Enter adds no second one; a paste is joined into it). */
const OneParagraph = Document.extend({ content: 'paragraph' });

/** A label's HTML without its paragraph: the page puts it inside its own label element, its mark after it. */
const unwrapped = (html: string) => html.replace(/^<p>([\s\S]*)<\/p>$/, '$1');

/**
 * A link's address as typed: one without a scheme (`www.brand.example/rules`) is taken as https;
 * undefined for a scheme the sanitiser does not keep (`javascript:`), said to the team.
 */
function linkAddress(typed: string): string | undefined {
  const address = /^[a-z][a-z0-9+.-]*:|^\//i.test(typed) ? typed : `https://${typed}`;
  return /^(?:https?:|mailto:|tel:|\/)/i.test(address) ? address : undefined;
}

/** The sanitiser's schemes, as Tiptap's link takes them. */
const LINK_PROTOCOLS = ALLOWED_SCHEMES.filter((scheme) => scheme !== 'http' && scheme !== 'https');

export default function RichTextField({ path, label, hint, optional, inline }: RichTextFieldProps) {
  const field = useField(path);
  const hintId = hint ? `${field.id}-hint` : undefined;
  const labelId = `${field.id}-label`;
  const html = asText(field.value);
  const editor = useTiptap({
    extensions: [
      ...(inline ? [OneParagraph] : []),
      StarterKit.configure({
        ...(inline ? { document: false as const } : {}),
        codeBlock: false,
        // No empty paragraph kept after a last heading: the text is what the team wrote.
        trailingNode: false,
        code: false,
        horizontalRule: false,
        heading: inline ? false : { levels: [1, 2, 3] },
        blockquote: inline ? false : {},
        bulletList: inline ? false : {},
        orderedList: inline ? false : {},
        listItem: inline ? false : {},
        listKeymap: inline ? false : {},
        link: {
          openOnClick: false,
          // Not an autolink: typing after a link's end is not part of it (Tiptap's links grow while they autolink).
          autolink: false,
          defaultProtocol: 'https',
          protocols: LINK_PROTOCOLS,
          isAllowedUri: (url, context) => context.defaultValidate(url) && /^(?:https?:|mailto:|tel:|\/)/i.test(url),
        },
      }),
    ],
    content: html,
    editable: !field.readOnly,
    // The inbox's policy takes no inline style: ProseMirror's own style sheets are imported above instead.
    injectCSS: false,
    immediatelyRender: true,
    onUpdate: ({ editor: changed }) => field.set(optional && changed.isEmpty ? undefined : inline ? unwrapped(changed.getHTML()) : changed.getHTML()),
  });
  // A change made elsewhere (the JSON view, an undo): shown, without writing it back.
  // (An editor destroyed meanwhile, its block moved or removed, is left alone.)
  useEffect(() => {
    if (editor.isDestroyed) return;
    const shown = inline ? unwrapped(editor.getHTML()) : editor.getHTML();
    if (shown !== html && !(html === '' && editor.isEmpty)) editor.commands.setContent(html, { emitUpdate: false });
  }, [editor, html, inline]);
  useEffect(() => {
    if (!editor.isDestroyed) editor.setEditable(!field.readOnly, false);
  }, [editor, field.readOnly]);
  // Named by the label, described by the hint and the problems, as the other fields are.
  const described = describedBy(field.invalid && field.problemId, hintId);
  useEffect(() => {
    if (editor.isDestroyed) return;
    editor.setOptions({
      editorProps: {
        attributes: {
          id: field.id,
          role: 'textbox',
          'aria-multiline': 'true',
          'aria-labelledby': labelId,
          ...(field.readOnly ? { 'aria-readonly': 'true' } : {}),
          ...(field.invalid ? { 'aria-invalid': 'true' } : {}),
          ...(described ? { 'aria-describedby': described } : {}),
          class: 'rich-text-content',
        },
      },
    });
  }, [editor, field.id, labelId, field.readOnly, field.invalid, described]);
  return (
    <div className="field rich-text">
      <span className="label" id={labelId}>
        {label}
      </span>
      {field.readOnly ? null : <Toolbar editor={editor} label={label} inline={inline} controls={field.id} />}
      <EditorContent editor={editor} />
      <FieldNotes hint={hint} hintId={hintId} field={field} />
    </div>
  );
}

/** A toolbar button: pressed while its format applies where the cursor is. */
function Tool({ pressed, onPress, children }: { pressed?: boolean; onPress: () => void; children: ReactNode }) {
  return (
    <button type="button" className="tool" aria-pressed={pressed ?? undefined} onMouseDown={(event) => event.preventDefault()} onClick={onPress}>
      {children}
    </button>
  );
}

/** The formats of {@link RichTextField}, as a WAI-ARIA toolbar (each a toggle button; the editor keeps the text's focus on a click). */
function Toolbar({ editor, label, inline, controls }: { editor: Editor; label: string; inline?: boolean; controls: string }) {
  const state = useEditorState({
    editor,
    selector: ({ editor: current }) => ({
      bold: current.isActive('bold'),
      italic: current.isActive('italic'),
      underline: current.isActive('underline'),
      link: current.isActive('link'),
      heading1: current.isActive('heading', { level: 1 }),
      heading2: current.isActive('heading', { level: 2 }),
      heading3: current.isActive('heading', { level: 3 }),
      bulletList: current.isActive('bulletList'),
      orderedList: current.isActive('orderedList'),
    }),
  });
  const chain = () => editor.chain().focus();
  const link = () => {
    if (state.link) return void chain().unsetLink().run();
    const typed = window.prompt('Link address (https://…, mailto:…, tel:…)', 'https://');
    if (!typed) return;
    const href = linkAddress(typed.trim());
    if (href) chain().extendMarkRange('link').setLink({ href }).run();
    else window.alert('Only https://, http://, mailto: and tel: addresses can be links.');
  };
  return (
    <div className="toolbar" role="toolbar" aria-label={`${label}: formatting`} aria-controls={controls}>
      {inline ? null : (
        <>
          <Tool pressed={state.heading1} onPress={() => chain().toggleHeading({ level: 1 }).run()}>
            Heading 1
          </Tool>
          <Tool pressed={state.heading2} onPress={() => chain().toggleHeading({ level: 2 }).run()}>
            Heading 2
          </Tool>
          <Tool pressed={state.heading3} onPress={() => chain().toggleHeading({ level: 3 }).run()}>
            Heading 3
          </Tool>
        </>
      )}
      <Tool pressed={state.bold} onPress={() => chain().toggleBold().run()}>
        Bold
      </Tool>
      <Tool pressed={state.italic} onPress={() => chain().toggleItalic().run()}>
        Italic
      </Tool>
      <Tool pressed={state.underline} onPress={() => chain().toggleUnderline().run()}>
        Underline
      </Tool>
      {inline ? null : (
        <>
          <Tool pressed={state.bulletList} onPress={() => chain().toggleBulletList().run()}>
            Bulleted list
          </Tool>
          <Tool pressed={state.orderedList} onPress={() => chain().toggleOrderedList().run()}>
            Numbered list
          </Tool>
        </>
      )}
      <Tool pressed={state.link} onPress={link}>
        Link
      </Tool>
    </div>
  );
}
