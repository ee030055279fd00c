import { defaultRangeExtractor, observeElementRect, useVirtualizer, type Range, type Virtualizer } from '@tanstack/react-virtual';
import { compute } from 'compute-scroll-into-view';
import { useCombobox, useMultipleSelection } from 'downshift';
import { useEffect, useMemo, useRef, useState, type CSSProperties, type ReactNode, type Ref, type RefCallback } from 'react';
import { formatMessage, type SelectTexts } from '../../shared/messages';
import { FieldError, describedBy, leavesForSubmit } from './field-error';
import { markRequired } from './required-mark';

/** Texts a select shows, from the page's messages (`selectTexts`, src/shared/messages.ts). */
export type { SelectTexts };

/** A select option (requirements §3): label shown and value stored. */
export interface Option {
  name: string;
  value: string;
  /**
   * Ranked first among the options that match a search equally well (the main country of a
   * shared calling code: "44" → United Kingdom before Guernsey, Isle of Man and Jersey).
   */
  primary?: boolean;
  /** Other words search finds the option by, ranked as its name would be (`UK`, a month's number). */
  keywords?: readonly string[];
}

interface CommonProps {
  id: string;
  label: ReactNode;
  options: readonly Option[];
  texts: SelectTexts;
  onBlur?: () => void;
  error?: string | undefined;
  disabled?: boolean | undefined;
  required?: boolean | undefined;
  inputRef?: Ref<HTMLInputElement>;
  /** Renders an option's content in the list (for example a flag before the name). */
  renderOption?: (option: Option) => ReactNode;
  /** Single mode: decoration shown before the picked option's name (for example its flag). */
  renderSelected?: (option: Option) => ReactNode;
  /**
   * Single mode: the text the box shows for the picked option, where it is shorter than the
   * option's name (the calling code's `+44` for "+44 United Kingdom"); by default the name. The
   * name then describes the box (`aria-describedby`), so assistive technology still hears which
   * option it holds, and search still reads the names.
   */
  selectedText?: (option: Option) => string;
  className?: string;
}

/** Props of a single select: `value` is one option value. */
export interface SingleSelectProps extends CommonProps {
  multiple?: false;
  value: string | undefined;
  onChange: (value: string | undefined) => void;
}

/** Props of a multi select: `value` is the picked option values, in pick order. */
export interface MultiSelectProps extends CommonProps {
  multiple: true;
  value: readonly string[];
  onChange: (value: string[]) => void;
  /** The most options that can be picked; further picks are ignored (requirements §5). */
  maxLength?: number | undefined;
}

/**
 * Lists with more options than this are windowed: only the options in view, a few
 * around them and the highlighted one are in the DOM (opening the 250
 * countries laid out 250 elements). Shorter lists render every option.
 */
export const WINDOWED_ABOVE = 40;
/** The open list's height limit in CSS pixels; the window covers this much when the list cannot be measured yet. */
export const MENU_MAX_HEIGHT_PX = 260;
/** An option's height before it is measured (one line: 10 px padding above and below, 24 px line). */
const OPTION_HEIGHT_ESTIMATE_PX = 44;
/** The list's padding above the first and below the last option, in CSS pixels. */
const MENU_PADDING_PX = 4;
/** Options rendered beyond each edge of the view, so a short scroll or a keystroke never shows a gap. */
const OVERSCAN = 6;

/**
 * Text as search compares it: accents dropped (é → e, ü → u), lower case in the page's language,
 * and hyphens, apostrophes, dots and spaces alike, one space for any run of them ("royaume uni"
 * finds Royaume-Uni, "cote d'ivoire" Côte d’Ivoire, "st lucia" St. Lucia).
 */
function searchForm(text: string, lang: string | undefined): string {
  // Lower case first: Turkish lowers İ to i before its dot would be dropped (then I → ı).
  return text
    .toLocaleLowerCase(lang)
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .replace(/[\s\p{Pd}'‘’ʼʻ.]+/gu, ' ');
}

// Each list's names (and keywords) as search compares them, each with where its first letter or
// digit is, computed once per options array and language (not per keystroke and option).
const searchNames = new WeakMap<readonly Option[], { lang: string | undefined; forms: { text: string; start: number }[][] }>();

/** True when `needle` occurs in `name` at the start of a word (after a space, a hyphen, a `+`, …). */
function startsAWord(name: string, needle: string, from: number): boolean {
  for (let at = from; at >= 0; at = name.indexOf(needle, at + 1)) {
    if (!/[\p{L}\p{N}]/u.test(name[at - 1] ?? '')) return true;
  }
  return false;
}

/**
 * Search on option names (requirements §5), case- and accent-insensitive in the page's language: a
 * name or keyword that is the term first ("uk" → United Kingdom before Ukraine), then the names
 * that start with the term, then those with a word that starts with it, then those that contain it
 * anywhere ("ger" → Germany before Algeria); in each group the `primary` options first, then the
 * list's own order.
 * @param lang - the page's language (BCP 47), for its lower case; default the runtime's.
 * @returns the matching options, ranked; all of them, in order, for an empty term.
 */
export function filterOptions<T extends Option>(options: readonly T[], term: string, lang?: string): T[] {
  // Trimmed after the search form: "-" or "'" alone is a space, which searches for nothing.
  const needle = searchForm(term, lang).trim();
  if (!needle) return [...options];
  let cached = searchNames.get(options);
  if (!cached || cached.lang !== lang) {
    const forms = options.map((option) =>
      [option.name, ...(option.keywords ?? [])].map((word) => {
        const text = searchForm(word, lang);
        // A name "starts with" the term at its first letter or digit: "+44 United Kingdom" starts with "44".
        return { text, start: text.search(/[\p{L}\p{N}]/u) };
      }),
    );
    cached = { lang, forms };
    searchNames.set(options, cached);
  }
  const { forms } = cached;
  // Eight groups: the whole word, a start, a word's start, anywhere; each with the primary options first.
  const ranked: T[][] = [[], [], [], [], [], [], [], []];
  options.forEach((option, index) => {
    let group = 4;
    for (const { text, start } of forms[index]!) {
      const at = text.indexOf(needle);
      if (at >= 0) group = Math.min(group, text.trim() === needle ? 0 : at <= start ? 1 : startsAWord(text, needle, at) ? 2 : 3);
    }
    if (group < 4) ranked[group * 2 + +!option.primary]!.push(option);
  });
  return ranked.flat();
}

/**
 * The option a search highlights as it is typed: the best match (the first of {@link filterOptions}'
 * ranking that can be picked), so Enter picks what was typed ("France", "+44", "44"), as the WAI-ARIA
 * APG's combobox with list autocomplete does. With nothing typed, `otherwise` (downshift's own choice).
 * @returns the match's index in the filtered list, or -1 when nothing matches.
 */
function firstMatchIndex(options: readonly Option[], typed: string, otherwise: number | undefined, isDisabled?: (option: Option) => boolean): number {
  if (!typed.trim()) return otherwise ?? -1;
  return filterOptions(options, typed, pageLang()).findIndex((option) => !isDisabled?.(option));
}

/**
 * Downshift's scrolling of the highlighted option into the list's view (the nearest edge, the list
 * alone), except for the first option, highlighted by every keystroke of a search: the list's top,
 * set without reading any layout (a keystroke lays out nothing before the browser's own frame).
 */
function scrollOptionIntoView(node: HTMLElement | null, menu: HTMLElement): void {
  if (!node) return;
  if (node.dataset['index'] === '0') {
    menu.scrollTop = 0;
    return;
  }
  for (const { el, top, left } of compute(node, { boundary: menu, block: 'nearest', scrollMode: 'if-needed' })) {
    el.scrollTop = top;
    el.scrollLeft = left;
  }
}

/** The option at `index` of the list a search for `typed` shows (all options for nothing typed). */
function matchAt(options: readonly Option[], typed: string, index: number): Option | undefined {
  return index < 0 ? undefined : filterOptions(options, typed, pageLang())[index];
}

/** The page's language as the document states it (`<html lang>`), for search. */
const pageLang = () => (typeof document === 'undefined' ? undefined : document.documentElement.lang || undefined);

/**
 * A searchable select following the WAI-ARIA combobox pattern (downshift):
 * type to filter, arrows, Home, End, PageUp and PageDown to move, Enter to pick,
 * Escape to close. Single mode closes on pick; multi mode stays open, toggles
 * picks and honours `maxLength`. Lists longer than {@link WINDOWED_ABOVE} are
 * windowed (@tanstack/react-virtual): the highlighted option is always rendered,
 * so `aria-activedescendant` names an element that exists, and every option
 * carries `aria-setsize` and `aria-posinset`.
 */
export function Select(props: SingleSelectProps | MultiSelectProps) {
  return props.multiple ? <MultiSelect {...props} /> : <SingleSelect {...props} />;
}

function SingleSelect(props: SingleSelectProps) {
  const { id, options, value, onChange, onBlur, error, disabled, inputRef, renderSelected, selectedText, texts } = props;
  const selected = useMemo(() => options.find((option) => option.value === value) ?? null, [options, value]);
  const [term, setTerm] = useState('');
  const items = useMemo(() => filterOptions(options, term, pageLang()), [options, term]);
  // What the box shows for an option once picked: its name, or the shorter text asked for.
  const shown = (option: Option | null) => (option ? (selectedText ? selectedText(option) : option.name) : '');
  // What the box's text searches for: nothing while it shows the picked option (every option listed).
  const searchOf = (text: string | undefined, picked: Option | null | undefined) => (picked && text === shown(picked) ? '' : (text ?? ''));
  // The box shows less than the name: the name describes the box, for assistive technology.
  const describedName = selectedText && selected ? `${id}-selected` : undefined;
  const combobox = useCombobox<Option>({
    id,
    inputId: id,
    items,
    selectedItem: selected,
    itemToString: shown,
    itemToKey: (option) => option?.value,
    scrollIntoView: scrollOptionIntoView,
    onSelectedItemChange: ({ selectedItem }) => onChange(selectedItem?.value),
    onInputValueChange: ({ inputValue, selectedItem }) => setTerm(searchOf(inputValue, selectedItem)),
    onIsOpenChange: ({ isOpen }) => {
      if (!isOpen) setTerm('');
    },
    stateReducer: (state, action) => {
      const { type } = action;
      let { changes } = action;
      const { InputChange, InputKeyDownEscape, InputKeyDownEnter, InputBlur, ToggleButtonClick } = useCombobox.stateChangeTypes;
      if (type === InputChange) {
        return { ...changes, highlightedIndex: firstMatchIndex(options, searchOf(changes.inputValue, state.selectedItem), changes.highlightedIndex) };
      }
      // Enter (or Tab away) picks the option highlighted in the list of what is typed, even when it
      // comes before that list has rendered (downshift would take the option at that place in the
      // list of the keystroke before: "33" then Enter at once picked +1).
      if ((type === InputKeyDownEnter || type === InputBlur) && changes.selectedItem) {
        changes = {
          ...changes,
          selectedItem: matchAt(options, searchOf(state.inputValue, state.selectedItem), state.highlightedIndex) ?? changes.selectedItem,
        };
      }
      // WAI-ARIA APG combobox: leaving or closing the list shows the chosen option again, never
      // the search typed (a stale "44" beside the flag of +1), and Escape never clears a chosen
      // value (downshift's default on a closed list) without a word.
      const chosen = 'selectedItem' in changes ? (changes.selectedItem ?? null) : state.selectedItem;
      if (type === InputKeyDownEscape) return { ...changes, selectedItem: state.selectedItem, inputValue: shown(state.selectedItem) };
      // Enter on no option, blur and the toggle close the list: the box shows the choice. (A click in
      // the box keeps what is typed there; leaving the box then shows the choice.)
      const closes = changes.isOpen === false && (type === InputKeyDownEnter || type === ToggleButtonClick);
      if (closes || type === InputBlur) return { ...changes, inputValue: shown(chosen) };
      return changes;
    },
  });
  return (
    <SelectFrame {...props} texts={texts} combobox={combobox} items={items} isSelected={(o) => o.value === value}>
      <input
        {...combobox.getInputProps({
          ref: inputRef,
          disabled,
          onBlur: (event) => {
            // Downshift reports a blur only from an open list: text typed after Escape would stay.
            if (!combobox.isOpen && combobox.inputValue !== shown(selected)) combobox.setInputValue(shown(selected));
            // Left for Continue: the press checks the whole step (an error shown now would move the button away).
            if (!leavesForSubmit(event)) onBlur?.();
          },
          onFocus: (event) => event.currentTarget.select(),
          // A click or tap in the box that shows the choice, focused already (just picked): the
          // choice selected again, so that what is typed replaces it, as after Tab (the click put
          // the caret in it, and typing appended to the name).
          onClick: (event) => {
            const input = event.currentTarget;
            if (input.value === shown(selected) && input.selectionStart === input.selectionEnd) input.select();
          },
          onKeyDown: (event) => {
            // Escape shows the choice again, selected, as on focus: what is typed next is a new
            // search, not "+1" with the search appended. Once the reset has rendered.
            if (event.key === 'Escape') {
              const input = event.currentTarget;
              requestAnimationFrame(() => {
                if (document.activeElement === input) input.select();
              });
            }
          },
          placeholder: combobox.isOpen ? texts.searchPlaceholder : texts.placeholder,
          'aria-invalid': error ? true : undefined,
          'aria-describedby': describedBy(describedName, error && `${id}-error`),
          'aria-required': props.required || undefined,
        })}
        className="select-input"
      />
      {renderSelected && selected && !combobox.isOpen ? (
        <span className="select-adornment" aria-hidden="true">
          {renderSelected(selected)}
        </span>
      ) : null}
      {describedName && selected ? (
        <span id={describedName} hidden>
          {selected.name}
        </span>
      ) : null}
    </SelectFrame>
  );
}

function MultiSelect(props: MultiSelectProps) {
  const { id, options, value, onChange, onBlur, error, disabled, inputRef, maxLength, texts } = props;
  const selectedItems = useMemo(
    () => value.map((v) => options.find((option) => option.value === v)).filter((o): o is Option => o !== undefined),
    [options, value],
  );
  const [term, setTerm] = useState('');
  const items = useMemo(() => filterOptions(options, term, pageLang()), [options, term]);
  // Picks can follow each other faster than a re-render: toggle against the latest committed value.
  const latest = useRef<readonly string[]>(value);
  useEffect(() => {
    latest.current = value;
  }, [value]);
  const toggle = (option: Option) => {
    const current = latest.current;
    const next = current.includes(option.value)
      ? current.filter((v) => v !== option.value)
      : maxLength === undefined || current.length < maxLength
        ? [...current, option.value]
        : current;
    if (next === current) return;
    latest.current = next;
    setRemoved(undefined);
    onChange([...next]);
  };
  // The pick last removed by Backspace, Delete or a chip's button, said in the polite status: a
  // pick must never go silently (outside review). A pick or unpick in the list clears it (the
  // option itself says it is selected or not).
  const [removed, setRemoved] = useState<string>();
  const multiple = useMultipleSelection<Option>({
    selectedItems,
    itemToKey: (option) => option?.value,
    onSelectedItemsChange: ({ selectedItems: next = [] }) => {
      setRemoved(selectedItems.find((option) => !next.includes(option))?.name);
      onChange(next.map((option) => option.value));
    },
  });
  // At the maximum, the options not picked cannot be picked: said so (aria-disabled), and skipped by the arrows.
  const isItemDisabled = (option: Option) => maxLength !== undefined && value.length >= maxLength && !value.includes(option.value);
  const combobox = useCombobox<Option>({
    id,
    inputId: id,
    items,
    selectedItem: null,
    isItemDisabled,
    scrollIntoView: scrollOptionIntoView,
    // Downshift owns the text (a controlled value drops fast keystrokes); `term` only filters.
    itemToString: (option) => option?.name ?? '',
    itemToKey: (option) => option?.value,
    stateReducer: (state, action) => {
      const { type } = action;
      let { changes } = action;
      switch (type) {
        case useCombobox.stateChangeTypes.InputChange:
          return { ...changes, highlightedIndex: firstMatchIndex(options, changes.inputValue ?? '', changes.highlightedIndex, isItemDisabled) };
        case useCombobox.stateChangeTypes.InputKeyDownEnter:
        case useCombobox.stateChangeTypes.ItemClick: {
          // Multi mode stays open on a pick (requirements §4); the search is done, so it clears at once
          // (WAI-ARIA APG: no stale search text), every option is listed again and the one just
          // picked stays highlighted. Enter on no option leaves everything as it was.
          // Enter: the option highlighted in the list of what is typed, as in single mode.
          const picked =
            type === useCombobox.stateChangeTypes.InputKeyDownEnter && changes.selectedItem
              ? (matchAt(options, state.inputValue, state.highlightedIndex) ?? changes.selectedItem)
              : changes.selectedItem;
          if (!picked) return state;
          changes = { ...changes, selectedItem: picked };
          return { ...changes, isOpen: true, highlightedIndex: options.findIndex((option) => option.value === picked.value), inputValue: '' };
        }
        case useCombobox.stateChangeTypes.ControlledPropUpdatedSelectedItem:
          // Downshift's echo of the controlled `selectedItem` (always null here) after a pick: it
          // would empty the box on the keystroke after the pick and lose it (outside review).
          return { ...changes, inputValue: state.inputValue };
        default:
          // A list closed by Escape, blur or the toggle forgets its search: no stale text is left in the box.
          return changes.isOpen === false &&
            (type === useCombobox.stateChangeTypes.InputKeyDownEscape ||
              type === useCombobox.stateChangeTypes.InputBlur ||
              type === useCombobox.stateChangeTypes.ToggleButtonClick)
            ? { ...changes, inputValue: '' }
            : changes;
      }
    },
    onStateChange: ({ type, selectedItem }) => {
      if (selectedItem && (type === useCombobox.stateChangeTypes.InputKeyDownEnter || type === useCombobox.stateChangeTypes.ItemClick)) {
        toggle(selectedItem);
      }
    },
    onInputValueChange: ({ inputValue }) => setTerm(inputValue),
  });
  return (
    <SelectFrame
      {...props}
      texts={texts}
      combobox={combobox}
      items={items}
      isSelected={(option) => value.includes(option.value)}
      chips={
        <>
          {selectedItems.length > 0 ? (
            <ul className="select-chips" aria-label={texts.selected}>
              {selectedItems.map((option, index) => (
                <li key={option.value} className="select-chip">
                  <span {...multiple.getSelectedItemProps({ selectedItem: option, index })}>{option.name}</span>
                  <button
                    type="button"
                    className="select-chip-remove"
                    aria-label={formatMessage(texts.remove, { name: option.name })}
                    disabled={disabled}
                    onClick={(event) => {
                      const chips = event.currentTarget.closest('ul');
                      multiple.removeSelectedItem(option);
                      // The button goes with its chip: focus to the next chip's (the one before, for
                      // the last), as the chips show once it has gone; the box when none is left.
                      requestAnimationFrame(() => {
                        const buttons = chips?.isConnected ? chips.querySelectorAll<HTMLElement>('.select-chip-remove') : [];
                        (buttons[index] ?? buttons[index - 1] ?? document.getElementById(id))?.focus();
                      });
                    }}
                  >
                    ×
                  </button>
                </li>
              ))}
            </ul>
          ) : null}
          {/* Polite: said once the maximum is reached or a pick is removed, without moving focus (an empty region first, so it is announced). */}
          <p className="select-limit" role="status">
            {removed !== undefined
              ? formatMessage(texts.removed, { name: removed })
              : maxLength !== undefined && value.length >= maxLength
                ? formatMessage(texts.maxReached, { max: maxLength })
                : ''}
          </p>
        </>
      }
    >
      <input
        {...combobox.getInputProps(
          multiple.getDropdownProps({
            ref: inputRef,
            disabled,
            onBlur: (event) => {
              // Downshift reports a blur only from an open list.
              if (!combobox.isOpen && combobox.inputValue !== '') combobox.setInputValue('');
              if (!leavesForSubmit(event)) onBlur?.();
            },
            placeholder: combobox.isOpen || selectedItems.length > 0 ? texts.searchPlaceholder : texts.placeholder,
            'aria-invalid': error ? true : undefined,
            'aria-describedby': describedBy(error && `${id}-error`),
            'aria-required': props.required || undefined,
          }),
        )}
        className="select-input"
      />
    </SelectFrame>
  );
}

interface FrameProps extends CommonProps {
  texts: SelectTexts;
  combobox: ReturnType<typeof useCombobox<Option>>;
  items: Option[];
  isSelected: (option: Option) => boolean;
  chips?: ReactNode;
  children: ReactNode;
}

/** Label, input row, toggle, listbox, 'No results found' and error, shared by both modes. */
function SelectFrame({ id, label, texts, combobox, items, isSelected, chips, children, error, disabled, required, renderOption, className }: FrameProps) {
  const { isOpen, highlightedIndex, getLabelProps, getMenuProps, getItemProps, getToggleButtonProps } = combobox;
  const menuRef = useRef<HTMLUListElement | null>(null);
  const windowed = items.length > WINDOWED_ABOVE;
  // The wizard is not built with the React Compiler, so nothing memoises the virtualizer's functions.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer<HTMLUListElement, HTMLLIElement>({
    // Nothing to observe or measure while the list is closed: a step with closed selects pays nothing.
    enabled: windowed && isOpen,
    initialRect: { width: 0, height: MENU_MAX_HEIGHT_PX },
    count: items.length,
    getScrollElement: () => menuRef.current,
    getItemKey: (index) => items[index]?.value ?? index,
    estimateSize: () => OPTION_HEIGHT_ESTIMATE_PX,
    paddingStart: MENU_PADDING_PX,
    paddingEnd: MENU_PADDING_PX,
    overscan: OVERSCAN,
    observeElementRect: observeMenuRect,
    measureElement: measureOption,
    // The highlighted option is in the DOM even when out of view (End, PageDown, the picked
    // option on opening): downshift scrolls it into view, the window follows the scroll.
    rangeExtractor: (range: Range) => withIndex(defaultRangeExtractor(range), highlightedIndex, items.length),
  });
  // One ref per rendered option and position, kept across renders: downshift hands out a new ref
  // callback on every render, and React calls a new ref with null and then the element again.
  // Kept per list of options (a keystroke that filters starts a new one), by position and value.
  const optionRefsByList = useMemo(() => new WeakMap<readonly Option[], Map<string, RefCallback<HTMLLIElement>>>(), []);
  const optionRef = (option: Option, index: number, downshiftRef: RefCallback<HTMLLIElement>): RefCallback<HTMLLIElement> => {
    let optionRefs = optionRefsByList.get(items);
    if (!optionRefs) optionRefsByList.set(items, (optionRefs = new Map()));
    const key = `${index}:${option.value}`;
    let ref = optionRefs.get(key);
    if (!ref) {
      // Downshift's ref records the element of the option at `index` (for scrolling it into view); the same every time.
      ref = (node) => {
        downshiftRef(node);
        virtualizer.measureElement(node);
      };
      optionRefs.set(key, ref);
    }
    return ref;
  };
  const rendered: { index: number; start?: number }[] = !isOpen
    ? []
    : windowed
      ? virtualizer.getVirtualItems().map(({ index, start }) => ({ index, start }))
      : items.map((_, index) => ({ index }));
  const menuStyle: CSSProperties & { '--select-list-height'?: string } = { maxHeight: MENU_MAX_HEIGHT_PX };
  if (windowed) menuStyle['--select-list-height'] = `${virtualizer.getTotalSize()}px`;
  return (
    <div className={`field select${isOpen ? ' select-open' : ''}${className ? ` ${className}` : ''}`}>
      <label className={markRequired('field-label', required)} {...getLabelProps({ htmlFor: id })}>
        {label}
      </label>
      <div className={`select-control${error ? ' select-control-invalid' : ''}${disabled ? ' select-control-disabled' : ''}`}>
        {children}
        <button type="button" className="select-toggle" {...getToggleButtonProps({ disabled, 'aria-label': texts.toggle })}>
          <span aria-hidden="true">▾</span>
        </button>
      </div>
      <ul
        className={`select-menu${windowed ? ' select-menu-windowed' : ''}`}
        hidden={!isOpen || items.length === 0}
        {...getMenuProps({ ref: menuRef, style: menuStyle })}
      >
        {rendered.map(({ index, start }) => {
          const option = items[index]!;
          const selected = isSelected(option);
          const itemProps = getItemProps({
            item: option,
            index,
            'aria-selected': selected,
            'aria-setsize': items.length,
            'aria-posinset': index + 1,
          });
          return (
            <li
              key={option.value}
              className={`select-option${highlightedIndex === index ? ' highlighted' : ''}${selected ? ' selected' : ''}`}
              data-index={index}
              style={start === undefined ? undefined : { transform: `translateY(${start}px)` }}
              {...itemProps}
              ref={windowed ? optionRef(option, index, itemProps.ref as RefCallback<HTMLLIElement>) : itemProps.ref}
            >
              {renderOption ? renderOption(option) : option.name}
            </li>
          );
        })}
      </ul>
      {isOpen && items.length === 0 ? (
        <p className="select-empty" role="status">
          {texts.noResults}
        </p>
      ) : null}
      {/* Below the box, under the open list: a pick that adds a chip never moves the box and its list. */}
      {chips}
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}

/** `indexes` (ascending) with `index` added in order, when it is one of the `count` options. */
function withIndex(indexes: number[], index: number, count: number): number[] {
  if (index < 0 || index >= count || indexes.includes(index)) return indexes;
  return [...indexes, index].sort((a, b) => a - b);
}

/**
 * An option's height for the window, in CSS pixels, without forcing a layout: the size the
 * browser reports through the virtualizer's `ResizeObserver` after its own layout (before the
 * paint), else the size already known for that option, else the one-line estimate. The
 * library's default reads `offsetHeight` when an option mounts, which made every keystroke
 * lay out the whole page inside the event. A name that wraps on a narrow phone is
 * still measured, in the same frame.
 */
function measureOption(element: HTMLLIElement, entry: ResizeObserverEntry | undefined, instance: Virtualizer<HTMLUListElement, HTMLLIElement>): number {
  const box = entry?.borderBoxSize?.[0];
  if (box) return Math.round(box.blockSize);
  return instance.itemSizeCache.get(instance.options.getItemKey(instance.indexFromElement(element))) ?? OPTION_HEIGHT_ESTIMATE_PX;
}

/**
 * The list's size for the window. While the list is hidden (closed) it measures 0: the window
 * then assumes the open list's height, so the first open renders enough options to fill it.
 */
const observeMenuRect: typeof observeElementRect<HTMLUListElement> = (instance, cb) =>
  observeElementRect(instance, (rect) => cb(rect.height > 0 ? rect : { width: rect.width, height: MENU_MAX_HEIGHT_PX }));
