import { createContext, useContext } from 'react';
import { useController, useFormContext, useWatch } from 'react-hook-form';
import type { WizardConfig } from '../../shared/config';
import type { Messages } from '../../shared/messages';
import { testCondition } from '../../shared/conditions';
import type { ValidationTarget } from '../../shared/blocks';
import { PLATFORM_FILLED_PATH } from '../../shared/blocks/platforms';

/** What every block can read: the configuration, its messages and validation targets. */
export interface WizardContextValue {
  config: WizardConfig;
  messages: Messages;
  /** All validation targets of the wizard, by path. */
  targets: ReadonlyMap<string, ValidationTarget>;
  /**
   * The country the age screen was answered with (ISO 3166-1 alpha-2, one of its list's; a page
   * whose minimum age is by country, requirements §20), which the country field starts from while
   * it is empty.
   */
  screenCountry?: string | undefined;
}

export const WizardContext = createContext<WizardContextValue | null>(null);

/** The wizard's context; throws outside a {@link WizardContext} provider. */
export function useWizard(): WizardContextValue {
  const value = useContext(WizardContext);
  if (!value) throw new Error('useWizard must be used inside the wizard');
  return value;
}

/** A form-value path as an id attribute: `personalInfo.firstName` → `personalInfo-firstName`. */
export function pathToId(path: string): string {
  return path.replace(/\./g, '-');
}

/**
 * Whether an item is shown and enabled: its `showOnCondition` (requirements §4) is
 * watched, so the item appears, hides or is disabled as the answers change.
 */
export function useItemVisibility(path: string): { hidden: boolean; disabled: boolean; conditional: boolean } {
  const { targets } = useWizard();
  const target = targets.get(path);
  const condition = target?.condition;
  const watched = useWatch({ name: condition?.path ?? PLATFORM_FILLED_PATH, disabled: !condition });
  if (!condition) return { hidden: false, disabled: false, conditional: false };
  const holds = testCondition(condition, watched);
  const effect = condition.effect ?? 'hide';
  return { hidden: !holds && effect === 'hide', disabled: !holds && effect === 'disable', conditional: target.conditional === true };
}

/**
 * Connects a control to the form at `path`: value, change, blur, error, and a
 * `settle` callback that re-validates once typing pauses (debounced by the
 * control) when the field was already touched or shows an error.
 */
export function useField<V>(path: string) {
  const { controller, settle } = useFieldController(path);
  const required = useRequired(path);
  return {
    id: pathToId(path),
    name: path,
    value: controller.field.value as V,
    onChange: controller.field.onChange as (value: V) => void,
    onBlur: controller.field.onBlur,
    ref: controller.field.ref,
    error: controller.fieldState.error?.message,
    required,
    settle,
  };
}

function useFieldController(path: string) {
  const controller = useController({ name: path });
  const revalidate = useRevalidate();
  return { controller, settle: () => revalidate([path]) };
}

/**
 * Re-validates those of `paths` that are touched or already show an error,
 * so messages follow the answers without nagging about untouched fields.
 */
export function useRevalidate(): (paths: string[]) => void {
  const { trigger, getFieldState } = useFormContext();
  return (paths) => {
    const shown = paths.filter((path) => {
      const state = getFieldState(path);
      return state.isTouched || state.error !== undefined;
    });
    if (shown.length > 0) void trigger(shown);
  };
}

/** True when a required validator applies to the path (for `aria-required` and the mark). */
function useRequired(path: string): boolean {
  const { targets } = useWizard();
  const target = targets.get(path);
  return target !== undefined && isRequiredTarget(target);
}

/**
 * Whether a validation target asks for an answer (requirements §5): a `required` rule, a condition
 * from the configuration while it holds, or the platforms' at-least-one rule. Its control is then
 * marked and announced as required; the same test says whether a step explains the mark.
 */
export function isRequiredTarget(target: ValidationTarget): boolean {
  return target.conditional === true || target.path === PLATFORM_FILLED_PATH || target.rules.some((rule) => rule.name === 'required');
}
