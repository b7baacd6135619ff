// Small modal questions in <dialog> elements (keyboard and screen-reader
// friendly by the browser's own rules): a line of text, a choice, a yes/no.

/** Thrown by an action whose question was cancelled: nothing was done, and nothing failed. */
export class Cancelled extends Error {
  constructor() {
    super('cancelled');
  }
}

/**
 * A modal dialog's frame: its form with a heading, and Cancel and submit
 * buttons that `finish` places at the end; Cancel closes it.
 * @param {string} title
 * @param {string} className
 * @param {string} submit the submit button's label
 */
function frame(title, className, submit) {
  const dialog = document.createElement('dialog');
  dialog.className = className;
  const form = document.createElement('form');
  form.method = 'dialog';
  const heading = document.createElement('h2');
  heading.textContent = title;
  form.append(heading);
  const cancel = document.createElement('button');
  cancel.type = 'button';
  cancel.textContent = 'Cancel';
  cancel.addEventListener('click', () => dialog.close());
  const ok = document.createElement('button');
  ok.type = 'submit';
  ok.className = 'primary';
  ok.textContent = submit;
  const finish = () => {
    const buttons = document.createElement('div');
    buttons.className = 'buttons';
    buttons.append(cancel, ok);
    form.append(buttons);
    dialog.append(form);
    document.body.append(dialog);
  };
  return { dialog, form, ok, cancel, finish };
}

/**
 * Asks for a line of text; resolves to the text, or null when cancelled.
 * `choices` (optional) adds a <select> whose value is returned as `choice`.
 */
export function ask(title, { value = '', label = 'Name', submit = 'OK', choices = null, choiceLabel = '' } = {}) {
  return new Promise((resolve) => {
    const { dialog, form, ok, finish } = frame(title, 'ask', submit);
    const labelled = (text, control) => {
      const field = document.createElement('label');
      field.textContent = text;
      field.append(control);
      form.append(field);
      return control;
    };
    const input = label ? labelled(label, Object.assign(document.createElement('input'), {
      name: 'value', value, required: true, autocomplete: 'off',
    })) : null;
    const select = choices ? labelled(choiceLabel, document.createElement('select')) : null;
    if (select) {
      select.name = 'choice';
      for (const choice of choices) select.append(new Option(choice.title, choice.value));
    }
    finish();
    let answer = null;
    form.addEventListener('submit', () => {
      answer = { value: input ? input.value.trim() : '', choice: select ? select.value : null };
    });
    dialog.addEventListener('close', () => {
      dialog.remove();
      resolve(answer && (!input || answer.value) ? (choices ? answer : answer.value) : null);
    });
    dialog.showModal();
    (input ?? select ?? ok).focus();
  });
}

/**
 * Asks which of some things, each shown as a toggle button holding its
 * element (a face, a photo); resolves to the values of those pressed (at
 * least one), or null when cancelled.
 * @param {string} title
 * @param {{ value: string, label: string, element: Element }[]} options
 * @param {{ submit?: string }} settings
 * @returns {Promise<string[] | null>}
 */
export function choose(title, options, { submit = 'OK' } = {}) {
  return new Promise((resolve) => {
    const { dialog, form, ok, cancel, finish } = frame(title, 'ask choose', submit);
    const list = document.createElement('div');
    list.className = 'options';
    list.setAttribute('role', 'group');
    list.setAttribute('aria-label', title);
    ok.disabled = true;
    const pressed = () => [...list.querySelectorAll('[aria-pressed="true"]')].map((b) => /** @type {HTMLElement} */ (b).dataset.value);
    for (const option of options) {
      const toggle = document.createElement('button');
      toggle.type = 'button';
      toggle.className = 'option';
      toggle.dataset.value = option.value;
      toggle.setAttribute('aria-pressed', 'false');
      toggle.setAttribute('aria-label', option.label);
      toggle.title = option.label;
      toggle.append(option.element);
      toggle.addEventListener('click', () => {
        toggle.setAttribute('aria-pressed', String(toggle.getAttribute('aria-pressed') !== 'true'));
        ok.disabled = pressed().length === 0;
      });
      list.append(toggle);
    }
    form.append(list);
    finish();
    let answer = null;
    form.addEventListener('submit', () => {
      answer = pressed();
    });
    dialog.addEventListener('close', () => {
      dialog.remove();
      resolve(answer?.length ? answer : null);
    });
    dialog.showModal();
    /** @type {HTMLElement} */ (list.firstElementChild ?? cancel).focus();
  });
}

/** Asks yes or no; resolves to true for yes. */
export async function confirmAction(title, submit = 'OK') {
  const answer = await ask(title, { label: '', submit, choices: null });
  return answer !== null;
}
