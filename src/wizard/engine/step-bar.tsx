import type { Step } from '../../shared/config';

/** Props of {@link StepBar}. */
export interface StepBarProps {
  steps: readonly Step[];
  current: number;
  label: string;
}

/**
 * The step bar (requirements §2): numbered dots with labels; completed steps marked,
 * the current one `aria-current="step"` (requirements §16).
 */
export function StepBar({ steps, current, label }: StepBarProps) {
  return (
    <nav className="step-bar" aria-label={label}>
      <ol>
        {steps.map((step, index) => {
          const state = index < current ? 'completed' : index === current ? 'active' : 'upcoming';
          return (
            <li key={step.name} className={`step-bar-item ${state}`} aria-current={index === current ? 'step' : undefined}>
              <span className="step-dot" aria-hidden="true">
                {index < current ? '✓' : index + 1}
              </span>
              <span className="step-label">{step.name}</span>
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
