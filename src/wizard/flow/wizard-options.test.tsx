import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseWizardConfig, type WizardConfigInput } from '../../shared/config';
import { Wizard } from '../engine/wizard';
import { browserServices } from '../services/browser';
import * as engine from '../wizard-engine';

afterEach(cleanup);

const BASE: WizardConfigInput = {
  title: 'Options page',
  lang: 'en',
  pageId: 'options',
  requestUrl: '',
  signUpUrl: 'https://example.com/sign-up',
  logo: '/logo.svg',
  coverImages: ['/a.svg', '/b.svg', '/c.svg'],
  steps: [
    { name: 'One', blocks: [{ component: 'html', data: { html: '<h1>One</h1>' } }] },
    { name: 'Two', blocks: [{ component: 'textField', data: { path: 'fields.answer', label: 'Answer' } }] },
    { name: 'Three', blocks: [{ component: 'html', data: { html: '<h2>Three</h2>' } }] },
  ],
};

function renderWizard(overrides: Partial<WizardConfigInput> = {}, redirect = vi.fn()) {
  const result = parseWizardConfig({ ...BASE, ...overrides });
  if (!result.config) throw new Error(JSON.stringify(result.problems));
  return { ...render(<Wizard services={browserServices} engine={engine} config={result.config} redirect={redirect} />), redirect };
}

const current = () => document.querySelector('[aria-current="step"] .step-label')?.textContent;

describe('configuration options (requirements §3)', () => {
  it('showLogo and centerLogo', () => {
    const { container, unmount } = renderWizard();
    expect(screen.getByRole('img', { name: 'Options page' }).getAttribute('src')).toBe('/logo.svg');
    expect(container.querySelector('.logo-bar')?.className).not.toContain('centered');
    unmount();
    const centered = renderWizard({ centerLogo: true });
    expect(centered.container.querySelector('.logo-bar')?.className).toContain('centered');
    centered.unmount();
    renderWizard({ showLogo: false });
    expect(screen.queryByRole('img', { name: 'Options page' })).toBeNull();
  });

  it('centerFooterText', () => {
    const { container } = renderWizard({ centerFooterText: true, footerLinks: [{ text: 'Terms', url: '/terms' }] });
    expect(container.querySelector('.wizard-footer')?.className).toContain('centered');
  });

  it('a cover image with srcset is shown at the size of its panel', () => {
    const { container } = renderWizard({ coverImages: [{ src: '/a-960.webp', srcset: '/a-480.webp 480w, /a-960.webp 960w' }] });
    const image = container.querySelector('.cover img')!;
    expect(image.getAttribute('src')).toBe('/a-960.webp');
    expect(image.getAttribute('srcset')).toBe('/a-480.webp 480w, /a-960.webp 960w');
    expect(image.getAttribute('sizes')).toBe('(max-width: 979px) 100vw, min(40vw, 960px)');
  });

  it('singleCoverImg replaces the per-step images', async () => {
    const user = userEvent.setup();
    const { container } = renderWizard({ singleCoverImg: '/single.svg' });
    expect(container.querySelector('.cover img')?.getAttribute('src')).toBe('/single.svg');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(container.querySelector('.cover img')?.getAttribute('src')).toBe('/single.svg');
  });

  it('buttonText renames Continue, Submit application, Back and Sign In', async () => {
    const user = userEvent.setup();
    renderWizard({ buttonText: { continue: 'Next', back: 'Previous', signIn: 'Go to the hub', submit: 'Send it' } });
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getAllByRole('button', { name: 'Previous' }).length).toBeGreaterThan(0);
    await user.type(screen.getByLabelText('Answer'), 'x');
    await user.click(screen.getByRole('button', { name: 'Send it' }));
    await screen.findByRole('button', { name: 'Go to the hub' });
  });

  it('continueButtonText and hideConfirmButton per step; grayBg per step', async () => {
    const user = userEvent.setup();
    const steps = structuredClone(BASE.steps);
    steps[0]!.continueButtonText = 'Start my application';
    steps[0]!.styles = { grayBg: true };
    steps[2]!.hideConfirmButton = true;
    const { container } = renderWizard({ steps });
    expect(container.querySelector('.wizard')?.className).toContain('gray-bg');
    await user.click(screen.getByRole('button', { name: 'Start my application' }));
    expect(container.querySelector('.wizard')?.className).not.toContain('gray-bg');
    await user.type(screen.getByLabelText('Answer'), 'x');
    // The step that sends the application says so.
    await user.click(screen.getByRole('button', { name: 'Submit application' }));
    await waitFor(() => expect(current()).toBe('Three'));
    expect(screen.queryByRole('button', { name: 'Sign In' })).toBeNull();
  });

  it('styleConfig styles the Back button and the back arrow', async () => {
    const user = userEvent.setup();
    const { container } = renderWizard({ styleConfig: { backButtonStyle: { color: 'rgb(1, 2, 3)' }, backArrowStyle: { fontSize: '30px' } } });
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect((container.querySelector('.back-button') as HTMLElement).style.color).toBe('rgb(1, 2, 3)');
    expect((container.querySelector('.back-arrow') as HTMLElement).style.fontSize).toBe('30px');
  });

  it('skipFinalStep: the second-to-last step validates and advances; the last validates, submits and redirects', async () => {
    const user = userEvent.setup();
    const steps = structuredClone(BASE.steps);
    steps[2] = { name: 'Three', blocks: [{ component: 'textField', data: { path: 'fields.last', label: 'Last' } }] };
    const { redirect } = renderWizard({
      skipFinalStep: true,
      steps,
      formItems: [
        { path: 'fields.answer', validators: ['required'] },
        { path: 'fields.last', validators: ['required'] },
      ],
    });
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await screen.findByText('This field is required');
    await user.type(screen.getByLabelText('Answer'), 'x');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(current()).toBe('Three'));
    // The last step is a question step here: it keeps its Back (an outside review); it sends the
    // application, and its button says so.
    expect(screen.getAllByRole('button', { name: 'Back' }).length).toBeGreaterThan(0);
    await user.click(screen.getByRole('button', { name: 'Submit application' }));
    await screen.findByText('This field is required');
    expect(redirect).not.toHaveBeenCalled();
    await user.type(screen.getByLabelText('Last'), 'y');
    await user.click(screen.getByRole('button', { name: 'Submit application' }));
    await waitFor(() => expect(redirect).toHaveBeenCalledWith('https://example.com/sign-up'));
  });

  it('showOnCondition hides or disables an item; a conditional item is required while its condition holds', async () => {
    const user = userEvent.setup();
    const steps = structuredClone(BASE.steps);
    steps[1] = {
      name: 'Two',
      blocks: [
        { component: 'checkbox', data: { path: 'fields.hasChannel', label: 'I have a <b>channel</b>' } },
        { component: 'textField', data: { path: 'fields.channel', label: 'Channel name' } },
        { component: 'textField', data: { path: 'fields.notes', label: 'Notes' } },
      ],
    };
    steps.push({ name: 'Four', blocks: [{ component: 'html', data: { html: '<p>Done</p>' } }] });
    renderWizard({
      steps,
      formItems: [
        { path: 'fields.channel', validators: [], showOnCondition: { path: 'fields.hasChannel', equals: true } },
        { path: 'fields.notes', validators: [], showOnCondition: { path: 'fields.hasChannel', equals: true, effect: 'disable' } },
      ],
    });
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(screen.queryByLabelText('Channel name')).toBeNull();
    expect((screen.getByLabelText('Notes') as HTMLTextAreaElement).disabled).toBe(true);
    // Hidden and disabled items are not validated.
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(current()).toBe('Three'));
    await user.click(screen.getAllByRole('button', { name: 'Back' })[0]!);
    await user.click(screen.getByRole('checkbox'));
    expect((screen.getByLabelText('Notes') as HTMLInputElement).disabled).toBe(false);
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(screen.getAllByText('This field is required')).toHaveLength(2));
    expect(current()).toBe('Two');
  });

  it('a required checkbox loses its error as it is ticked, not at blur, so a press on Continue right after is not lost', async () => {
    const user = userEvent.setup();
    const steps = structuredClone(BASE.steps);
    steps[1] = { name: 'Two', blocks: [{ component: 'checkbox', data: { path: 'agreement', label: 'I agree' } }] };
    renderWizard({ steps, formItems: [{ path: 'agreement', validators: ['required'] }] });
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await user.click(screen.getByRole('button', { name: 'Submit application' }));
    await waitFor(() => expect(screen.getByRole('checkbox').getAttribute('aria-invalid')).toBe('true'));
    await user.click(screen.getByRole('checkbox'));
    // Still focused on the box: no blur yet.
    expect(document.activeElement).toBe(screen.getByRole('checkbox'));
    await waitFor(() => expect(screen.getByRole('checkbox').getAttribute('aria-invalid')).toBeNull());
    expect(screen.queryByText('This field is required')).toBeNull();
  });

  it('the platforms the block asks for show invalid, described by its message, until one is filled', async () => {
    const user = userEvent.setup();
    const steps = structuredClone(BASE.steps);
    steps[1] = {
      name: 'Two',
      blocks: [
        {
          component: 'platforms',
          data: { title: 'Platforms', platforms: [{ name: 'instagram', required: true }, { name: 'tiktok', required: true }, { name: 'youtube' }] },
        },
      ],
    };
    renderWizard({ steps });
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await user.click(screen.getByRole('button', { name: 'Submit application' }));
    const handle = (name: string) => screen.getByRole('textbox', { name: `${name} handle` });
    await waitFor(() => expect(handle('Instagram').getAttribute('aria-invalid')).toBe('true'));
    expect(handle('TikTok').getAttribute('aria-invalid')).toBe('true');
    expect(handle('Instagram').getAttribute('aria-describedby')).toBe('platformFilled-error');
    expect(document.getElementById('platformFilled-error')?.textContent).toBe('Fill all required platforms');
    // The optional one is not asked for.
    expect(handle('YouTube').getAttribute('aria-invalid')).toBeNull();
    await user.type(handle('Instagram'), 'ada.makes');
    await user.type(screen.getByRole('textbox', { name: 'Instagram followers' }), '900');
    await user.type(handle('TikTok'), 'ada');
    await user.type(screen.getByRole('textbox', { name: 'TikTok followers' }), '90');
    await user.tab();
    await waitFor(() => expect(handle('TikTok').getAttribute('aria-invalid')).toBeNull());
    expect(handle('Instagram').getAttribute('aria-invalid')).toBeNull();
  });

  describe("once shown, the platforms' error re-checks as the rows change and are left, not 500 ms later nor at the next Continue (outside review)", () => {
    const steps = structuredClone(BASE.steps);
    steps[1] = {
      name: 'Two',
      blocks: [{ component: 'platforms', data: { title: 'Platforms', platforms: [{ name: 'instagram' }, { name: 'youtube' }, { name: 'tiktok' }] } }],
    };
    const handle = (name: string) => screen.getByRole('textbox', { name: `${name} handle` });
    const followers = (name: string) => screen.getByRole('textbox', { name: `${name} followers` });
    /** Step two with everything empty pressed on; then the settle's 500 ms timer never comes (the clock stands still). */
    async function shownAndClockStopped() {
      const user = userEvent.setup();
      renderWizard({ steps });
      await user.click(screen.getByRole('button', { name: 'Continue' }));
      await user.click(screen.getByRole('button', { name: 'Submit application' }));
      await waitFor(() => expect(handle('YouTube').getAttribute('aria-invalid')).toBe('true'));
      expect(screen.getByText('Fill at least one platform')).toBeTruthy();
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    }
    afterEach(() => vi.useRealTimers());
    const gone = () => {
      expect(screen.queryByText('Fill at least one platform')).toBeNull();
      expect(handle('YouTube').getAttribute('aria-invalid')).toBeNull();
      expect(handle('TikTok').getAttribute('aria-invalid')).toBeNull();
    };

    it('as a field is left', async () => {
      await shownAndClockStopped();
      fireEvent.change(handle('Instagram'), { target: { value: 'ada.makes' } });
      fireEvent.change(followers('Instagram'), { target: { value: '900' } });
      // No timer runs: only the blur and the promises it starts.
      await act(async () => fireEvent.blur(followers('Instagram')));
      gone();
    });

    it('after each keystroke', async () => {
      await shownAndClockStopped();
      // A platform begun is filled in: the block's message goes at the first keystroke (what the row
      // still lacks is its own fields' to say).
      fireEvent.change(handle('Instagram'), { target: { value: 'ada.makes' } });
      await act(() => vi.advanceTimersByTimeAsync(0));
      expect(screen.queryByText('Fill at least one platform')).toBeNull();
      fireEvent.change(followers('Instagram'), { target: { value: '900' } });
      await act(() => vi.advanceTimersByTimeAsync(0));
      gone();
    });
  });

  it('the next step, rendered ahead while hidden, shows what the answers on the current step decide', async () => {
    const user = userEvent.setup();
    const steps = structuredClone(BASE.steps);
    steps[1] = { name: 'Two', blocks: [{ component: 'checkbox', data: { path: 'fields.hasChannel', label: 'I have a channel' } }] };
    steps[2] = {
      name: 'Three',
      blocks: [
        { component: 'textField', data: { path: 'fields.channel', label: 'Channel name' } },
        { component: 'html', data: { html: '<p>Thanks, {email}</p>' } },
      ],
    };
    steps.push({ name: 'Four', blocks: [{ component: 'html', data: { html: '<p>Done</p>' } }] });
    const { container } = renderWizard({
      steps,
      formItems: [{ path: 'fields.channel', validators: [], showOnCondition: { path: 'fields.hasChannel', equals: true } }],
    });
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    // Step Three is in the page already, hidden, without the channel field (its condition does not hold).
    await waitFor(() => expect(container.querySelector('.step-ahead')).not.toBeNull());
    expect(container.querySelector('.step-ahead input')).toBeNull();
    expect(container.querySelectorAll('.step')).toHaveLength(1);
    await user.click(screen.getByRole('checkbox'));
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(current()).toBe('Three'));
    expect(screen.getByRole('textbox', { name: 'Channel name' })).toBeTruthy();
    await user.click(screen.getAllByRole('button', { name: 'Back' })[0]!);
    await user.click(screen.getByRole('checkbox'));
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(current()).toBe('Three'));
    expect(screen.queryByRole('textbox', { name: 'Channel name' })).toBeNull();
  });

  it('the personalInfo fields the default form does not ask are available as blocks', async () => {
    const user = userEvent.setup();
    const steps = structuredClone(BASE.steps);
    steps[1] = {
      name: 'Two',
      blocks: [{ component: 'personalInfo', data: { fields: ['addressFirstLine', 'addressSecondLine', 'city', 'zip', 'company'] } }],
    };
    renderWizard({ steps });
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    for (const label of ['Address', 'Apartment, suite, etc.', 'City', 'ZIP / Postal code', 'Company']) {
      expect(screen.getByLabelText(label)).toBeTruthy();
    }
    await user.type(screen.getByLabelText('ZIP / Postal code'), 'AB-12');
    await user.click(screen.getByRole('button', { name: 'Submit application' }));
    await screen.findByText('Enter a valid ZIP code');
    await user.clear(screen.getByLabelText('ZIP / Postal code'));
    await user.type(screen.getByLabelText('ZIP / Postal code'), '12345-678 9');
    await user.click(screen.getByRole('button', { name: 'Submit application' }));
    await waitFor(() => expect(current()).toBe('Three'));
  });
});

/**
 * From the welcome step to the age screen, answered: March of `year`, and `country` where the
 * page asks one. Continue is left to the caller.
 */
async function answerAgeScreen(user: ReturnType<typeof userEvent.setup>, year = '1990', country?: string) {
  await user.click(screen.getByRole('button', { name: 'Continue' }));
  await user.type(await screen.findByRole('combobox', { name: 'Month' }), 'Mar{Enter}');
  await user.type(screen.getByLabelText('Year'), year);
  if (country) await user.type(screen.getByRole('combobox', { name: /country/i }), `${country}{Enter}`);
}

/** What the combobox named `name` shows. */
const shows = (name: string) => (screen.getByRole('combobox', { name }) as HTMLInputElement).value;

describe('the age screen by country (requirements §20)', () => {
  it("starts the country field from the age screen's country, and the calling code with it; a country changed there stays the applicant's", async () => {
    const user = userEvent.setup();
    const steps = structuredClone(BASE.steps);
    steps.splice(1, 0, { name: 'About you', blocks: [{ component: 'personalInfo', data: { fields: ['phone', 'countryCode'] } }] });
    renderWizard({ steps, pageId: 'by-country', ageScreen: { minimumAge: 'byCountry', endedHtml: '<p>Ended.</p>' } });
    await answerAgeScreen(user, '1990', 'France');
    await user.click(screen.getByRole('button', { name: 'Continue' }));

    const country = await screen.findByRole('combobox', { name: 'Country' });
    await waitFor(() => expect(shows('Country')).toBe('France'));
    expect(shows('Country code')).toBe('+33');
    // Back and on again: still the applicant's, not set a second time.
    await user.clear(country);
    await user.type(country, 'Japan{Enter}');
    await waitFor(() => expect(shows('Country code')).toBe('+81'));
    await user.click(screen.getAllByRole('button', { name: 'Back' })[0]!);
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(shows('Country')).toBe('Japan'));
  });

  it('says Continue on the screen in front of the step that sends the application, and the step its own words after it', async () => {
    const user = userEvent.setup();
    renderWizard({ pageId: 'screen-first', ageScreen: { minimumAge: 13, endedHtml: '<p>Ended.</p>' } });
    await answerAgeScreen(user);
    expect(screen.queryByRole('button', { name: 'Submit application' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await screen.findByLabelText('Answer');
    expect(screen.getByRole('button', { name: 'Submit application' })).toBeTruthy();
  });

  it('says a birth month in a year to come at the year, not the month', async () => {
    const user = userEvent.setup();
    renderWizard({ pageId: 'future', ageScreen: { minimumAge: 13, endedHtml: '<p>Ended.</p>' } });
    await answerAgeScreen(user, String(new Date().getUTCFullYear() + 2));
    const month = screen.getByRole('combobox', { name: 'Month' });
    const year = screen.getByLabelText('Year');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(year.getAttribute('aria-invalid')).toBe('true'));
    expect(month.getAttribute('aria-invalid')).toBeNull();
    expect(screen.getByText('This month has not come yet')).toBeTruthy();
  });

  it('gives the calling code the country on a page that asks the phone without a country field', async () => {
    const user = userEvent.setup();
    const steps = structuredClone(BASE.steps);
    steps.splice(1, 0, { name: 'About you', blocks: [{ component: 'personalInfo', data: { fields: ['phone'] } }] });
    renderWizard({ steps, pageId: 'phone-only', ageScreen: { minimumAge: 'byCountry', endedHtml: '<p>Ended.</p>' } });
    await answerAgeScreen(user, '1990', 'Japan');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(shows('Country code')).toBe('+81'));
  });

  it('shows its Continue in front of a step that hides its own', async () => {
    const user = userEvent.setup();
    const steps = structuredClone(BASE.steps);
    steps[1] = { ...steps[1]!, hideConfirmButton: true };
    renderWizard({ steps, pageId: 'hidden-button', ageScreen: { minimumAge: 13, endedHtml: '<p>Ended.</p>' } });
    await answerAgeScreen(user);
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await screen.findByLabelText('Answer');
    expect(screen.queryByRole('button', { name: 'Submit application' })).toBeNull();
  });
});

describe('the calling code and the country (requirements §4)', () => {
  it('the code a country set follows the next country, after any field went back to its default', async () => {
    const user = userEvent.setup();
    const steps = structuredClone(BASE.steps);
    steps.splice(1, 0, { name: 'About you', blocks: [{ component: 'personalInfo', data: { fields: ['firstName', 'phone', 'countryCode'] } }] });
    renderWizard({ steps, pageId: 'follows' });
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    const country = await screen.findByRole('combobox', { name: 'Country' });
    const code = () => shows('Country code');
    await user.type(country, 'France{Enter}');
    await waitFor(() => expect(code()).toBe('+33'));
    // A number not right for +33 yet, and a field typed in and emptied: react-hook-form then works
    // every field's dirty flag out again from the values, the code's included.
    await user.type(screen.getByLabelText('Phone number'), '12');
    await user.type(screen.getByLabelText('First name'), 'x');
    await user.clear(screen.getByLabelText('First name'));
    await user.clear(country);
    await user.type(country, 'Japan{Enter}');
    await waitFor(() => expect(code()).toBe('+81'));
  });
});
