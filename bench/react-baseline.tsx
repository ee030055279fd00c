/**
 * The React-only baseline of the interactions bench (bench/interactions.ts):
 * the comparable work done with plain React and nothing else, so the wizard's
 * figures can be read against what React itself costs on the same machine in
 * the same run. A welcome view whose Continue switches to a step of a dozen
 * labelled inputs, and a text input that opens a list of the same 250 country
 * names as plain elements and filters it as one types (substring match).
 * The names come from the page: `<script id="names" type="application/json">`.
 */
import { useState } from 'react';
import { createRoot } from 'react-dom/client';

const NAMES = JSON.parse(document.getElementById('names')!.textContent!) as string[];
const FIELDS = [
  'First name',
  'Last name',
  'Country code',
  'Phone number',
  'Email',
  'Country',
  'State / Province',
  'Instagram handle',
  'Instagram followers',
  'TikTok handle',
  'TikTok followers',
  'Website',
];

function Step() {
  const [values, setValues] = useState<Record<string, string>>({});
  const [term, setTerm] = useState('');
  const [open, setOpen] = useState(false);
  const needle = term.trim().toLocaleLowerCase();
  const shown = needle ? NAMES.filter((name) => name.toLocaleLowerCase().includes(needle)) : NAMES;
  return (
    <div>
      <h2>Introduce yourself</h2>
      {FIELDS.map((field) => (
        <p key={field}>
          <label>
            {field}
            <input type="text" value={values[field] ?? ''} onChange={(event) => setValues({ ...values, [field]: event.target.value })} />
          </label>
        </p>
      ))}
      <label>
        Names
        <input type="text" aria-label="Names" value={term} onClick={() => setOpen(true)} onChange={(event) => setTerm(event.target.value)} />
      </label>
      {open ? (
        <ul className="list">
          {shown.map((name) => (
            <li key={name}>{name}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

function App() {
  const [step, setStep] = useState(0);
  return (
    <main>
      {step === 0 ? (
        <div>
          <h2>Welcome</h2>
          <p>A welcome text of a few lines, as the wizard's first step has.</p>
          <button type="button" onClick={() => setStep(1)}>
            Continue
          </button>
        </div>
      ) : (
        <Step />
      )}
    </main>
  );
}

createRoot(document.getElementById('root')!).render(<App />);
