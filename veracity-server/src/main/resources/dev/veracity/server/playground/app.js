// The playground of `veracity serve` (Playground.java). Plain script, no library: it calls this server's own
// /v1/models and /v1/chat/completions (stream: true) and draws the answer's `veracity` field. Documents and model
// output are untrusted: every piece of them goes into the page as text (textContent, text nodes), never as markup.
'use strict';

(() => {
  const KEY = 'veracity.apiKey';
  const $ = id => document.getElementById(id);
  let models = new Map();

  /** An element with attributes and children; strings become text nodes (never parsed as HTML). */
  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === 'class') {
        e.className = v;
      } else {
        e.setAttribute(k, v);
      }
    }
    for (const c of children.flat()) {
      if (c !== null && c !== undefined) {
        e.append(c instanceof Node ? c : String(c));
      }
    }
    return e;
  }

  function requestHeaders() {
    const h = { 'Content-Type': 'application/json' };
    const key = sessionStorage.getItem(KEY);
    if (key) {
      h.Authorization = 'Bearer ' + key;
    }
    return h;
  }

  async function readJson(response) {
    const text = await response.text();
    try {
      return JSON.parse(text);
    } catch (e) {
      return { error: { message: 'HTTP ' + response.status + ': ' + text.slice(0, 300) } };
    }
  }

  /** The server's one-line error, with its code, or the HTTP status. */
  function errorText(body, response) {
    const e = body && body.error;
    if (e && e.message) {
      return e.message + (e.code ? ' (' + e.code + ')' : '');
    }
    return 'HTTP ' + response.status;
  }

  function showError(message) {
    $('error').textContent = message;
    $('error').hidden = false;
  }

  function clearError() {
    $('error').textContent = '';
    $('error').hidden = true;
  }

  function askForKey() {
    $('key-form').hidden = false;
    $('key').focus();
  }

  async function loadModels() {
    let response;
    try {
      response = await fetch('/v1/models', { headers: requestHeaders() });
    } catch (e) {
      showError('The server did not answer (' + e.message + '): is veracity serve still running?');
      return;
    }
    const body = await readJson(response);
    if (response.status === 401) {
      askForKey();
      showError(errorText(body, response));
      return;
    }
    if (!response.ok) {
      showError(errorText(body, response));
      return;
    }
    $('key-form').hidden = true;
    clearError();
    models = new Map((body.data || []).map(m => [m.id, m]));
    const list = $('methods');
    list.replaceChildren(...[...models.keys()].map(id => el('option', { value: id })));
    describeMethod();
  }

  function describeMethod() {
    const name = $('method').value.trim();
    const m = models.get(name.split('@')[0]);
    $('option-names').textContent = m && m.options && m.options.length
      ? 'Its options: ' + m.options.map(o => o.name + ' (' + o.type
        + (o.default === null || o.default === '' ? '' : ', default ' + o.default) + ')').join(', ') : '';
    $('method-info').textContent = m ? m.description + (m.paper ? ' (' + m.paper + (m.section ? ', ' + m.section : '') + ')' : '')
      : models.size ? 'Not a method this server lists; the list has ' + models.size + ' (methods, then compositions).' : '';
  }

  /** Documents: one per block of lines, blocks separated by an empty line. */
  function documents(text) {
    return text.split(/\r?\n\s*\r?\n/).map(d => d.trim()).filter(d => d.length > 0);
  }

  let timer = null;

  function working(on) {
    $('ask-button').disabled = on;
    clearInterval(timer);
    if (on) {
      const started = Date.now();
      const tick = () => { $('status').textContent = 'The method is working… ' + Math.round((Date.now() - started) / 1000) + ' s'; };
      tick();
      timer = setInterval(tick, 1000);
    } else {
      $('status').textContent = '';
    }
  }

  async function ask(event) {
    event.preventDefault();
    clearError();
    describeMethod();
    const method = $('method').value.trim();
    const question = $('question').value.trim();
    if (!method) {
      showError('Name a method: the list has every method and composition this server serves.');
      return;
    }
    if (!question) {
      showError('Type a question.');
      return;
    }
    const body = { model: method, stream: true, messages: [{ role: 'user', content: question }] };
    const options = $('options').value.trim();
    if (options) {
      try {
        body.veracity_options = JSON.parse(options);
      } catch (e) {
        showError('Options are a JSON object, e.g. {"rounds": 2}: ' + e.message);
        return;
      }
    }
    const docs = documents($('documents').value);
    if (docs.length > 0) {
      body.documents = docs;
    }
    const answer = $('answer');
    let ended = false; // the stream's [DONE] or its error event came
    answer.textContent = '';
    answer.classList.remove('empty');
    $('badges').replaceChildren();
    $('panels').replaceChildren();
    working(true);
    try {
      const response = await fetch('/v1/chat/completions', { method: 'POST', headers: requestHeaders(), body: JSON.stringify(body) });
      if (!response.ok) {
        const problem = await readJson(response);
        if (response.status === 401) {
          askForKey();
        }
        failed(errorText(problem, response));
        return;
      }
      if ((response.headers.get('Content-Type') || '').startsWith('text/event-stream')) {
        await readStream(response);
      } else {
        const completion = await readJson(response);
        answer.textContent = completion.choices && completion.choices[0] ? completion.choices[0].message.content : '';
        render(completion.veracity, docs);
      }
    } catch (e) {
      failed('The request failed (' + e.message + '): is veracity serve still running?');
    } finally {
      working(false);
    }

    async function readStream(response) {
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) {
          break;
        }
        // line ends are unified on the whole buffer: a \r\n may be split across two reads
        buffer = (buffer + decoder.decode(value, { stream: true })).replace(/\r\n/g, '\n');
        let end;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const event = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          onEvent(event);
        }
      }
      if (!ended) {
        failed('The answer stream broke off before its end: ask again.');
      }
    }

    function onEvent(event) {
      const data = event.split('\n').filter(l => l.startsWith('data:')).map(l => l.slice(5).replace(/^ /, '')).join('\n');
      if (data === '') {
        return; // a keep-alive comment
      }
      if (data === '[DONE]') {
        ended = true;
        return;
      }
      let chunk;
      try {
        chunk = JSON.parse(data);
      } catch (e) {
        ended = true;
        failed('The server sent an event the page cannot read (' + e.message + '): ask again.');
        return;
      }
      if (chunk.error) {
        ended = true; // a failure after the stream opened is its last event
        failed(errorText(chunk, { status: 200 }));
        return;
      }
      for (const choice of chunk.choices || []) {
        if (choice.delta && choice.delta.content) {
          answer.append(choice.delta.content);
        }
      }
      if (chunk.veracity) {
        render(chunk.veracity, docs);
      }
    }

    function failed(message) {
      showError(message);
      if (answer.textContent === '') {
        answer.textContent = 'No answer.';
        answer.classList.add('empty');
      }
    }
  }

  /** "1 call", "2 calls". */
  function count(n, noun) {
    return n + ' ' + noun + (n === 1 ? '' : 's');
  }

  function badge(text, kind) {
    return el('span', { class: 'badge' + (kind ? ' ' + kind : '') }, text);
  }

  function table(head, rows) {
    // a long unbroken value (a URL in an action) scrolls its table instead of squeezing the short columns
    return el('div', { class: 'scroll' }, el('table', {}, el('thead', {}, el('tr', {}, head.map(h => el('th', {}, h)))),
      el('tbody', {}, rows.map(r => el('tr', {}, r.map(c => c instanceof Node && c.tagName === 'TD' ? c : el('td', {}, c)))))));
  }

  function answerList(items, cls) {
    return items.length === 0 ? el('p', { class: 'hint' }, 'none')
      : el('ul', { class: 'answers' }, items.map(a => el('li', { class: cls }, a)));
  }

  const VERDICTS = {
    passed: ['verified: passed', 'good'], failed: ['verified: failed', 'bad'],
    no_claims: ['verified: no claims', 'warn'], unparseable: ['verified: unparseable', 'warn']
  };

  /** The answer's `veracity` field: badges, then one panel per thing the method reported. */
  function render(v, docs) {
    if (!v) {
      return;
    }
    const badges = [badge(v.method)];
    if (v.verification) {
      const [text, kind] = VERDICTS[v.verification.verdict] || ['verified: ' + v.verification.verdict, 'warn'];
      badges.push(badge(text, kind));
    }
    badges.push(v.abstained ? badge('abstained', 'warn') : badge('answered'));
    if (v.truncated) {
      badges.push(badge(v.truncated.answer ? 'answer cut by its token limit' : 'an output cut by its token limit', 'warn'));
    }
    if (v.calls) {
      badges.push(badge(count(v.calls.count, 'call')));
    }
    $('badges').replaceChildren(...badges);
    const d = v.details || {};
    const panels = [];
    if (v.answers && v.answers.length > 1) {
      panels.push(el('h3', {}, 'Answers'), answerList(v.answers));
    }
    if (v.verification && v.verification.abstained_by_policy && v.raw) {
      panels.push(el('p', { id: 'withheld', class: 'hint' }, 'The answer the abstain policy withheld: ' + v.raw));
    }
    // in the order the method worked: the base method, then MARCH's verification of its answer
    if (d.madam) {
      panels.push(...madam(d.madam, v.documents, docs));
    }
    if (d.court) {
      panels.push(...court(d.court));
    } else if (v.candidates) {
      panels.push(el('h3', {}, 'Candidates the method chose among'),
        table(['agent', 'answer', 'steps'], v.candidates.map(c => [c.agent, c.answer, String(c.steps)])));
    }
    if (d.c3po) {
      panels.push(...c3po(d.c3po));
    }
    if (d.truthrl) {
      panels.push(...truthrl(d.truthrl));
    }
    if (d.march) {
      panels.push(...march(d.march));
    }
    for (const [name, value] of Object.entries(d)) {
      if (!['march', 'madam', 'court', 'c3po', 'truthrl'].includes(name)) {
        panels.push(el('h3', {}, name), el('pre', {}, JSON.stringify(value, null, 2)));
      }
    }
    if (v.parse_failures && v.parse_failures.length > 0) {
      panels.push(el('h3', {}, 'Outputs the method could not parse'), answerList(v.parse_failures));
    }
    panels.push(...cost(v));
    $('panels').replaceChildren(...panels);
  }

  function march(m) {
    const faults = m.claims.filter(c => c.verdict === 'fault').length;
    const summary = {
      passed: 'passed: the Checker confirmed every claim',
      failed: 'failed: the Checker contradicted ' + faults + ' of ' + m.claims.length + ' claim' + (m.claims.length === 1 ? '' : 's'),
      no_claims: 'no claims: the Proposer found nothing to check',
      unparseable: 'unparseable: a Proposer or Checker output could not be read'
    }[m.verdict] || m.verdict;
    return [el('h3', {}, 'MARCH: the answer\'s claims, checked against the documents'),
      el('p', { id: 'march-verdict' }, 'Verdict: ' + summary + (m.attempts > 1 ? ' (' + m.attempts + ' attempts)' : '')),
      table(['#', 'Proposer\'s question', 'claimed', 'Checker\'s answers', 'vote', 'verdict'], m.claims.map(c => [
        String(c.number), c.question, c.claimed_answer, c.checker_answers.map(a => a === '' ? '(none)' : a).join(' · '),
        (c.vote > 0 ? '+' : '') + c.vote, el('td', { class: 'verdict-' + c.verdict }, c.verdict)]))];
  }

  function madam(m, documentsField, docs) {
    const ids = documentsField ? documentsField.ids : [];
    const agents = Math.max(0, ...m.rounds.map(r => r.answers.length));
    const head = ['agent (document)', ...m.rounds.map(r => 'round ' + r.number)];
    const rows = [];
    for (let i = 0; i < agents; i++) {
      const doc = docs[i] !== undefined ? docs[i] : '';
      const label = el('td', {}, 'agent ' + (i + 1) + (ids[i] !== undefined ? ' (doc ' + ids[i] + ')' : ''),
        doc ? el('div', { class: 'hint' }, doc.length > 90 ? doc.slice(0, 90) + '…' : doc) : null);
      rows.push([label, ...m.rounds.map(r => r.answers[i] === undefined || r.answers[i] === '' ? '(none)' : r.answers[i])]);
    }
    rows.push([el('td', {}, el('b', {}, 'aggregator')), ...m.rounds.map(r => r.aggregated ? r.aggregated.join('; ')
      : '(converged: the aggregation before stands)')]);
    return [el('h3', {}, 'MADAM-RAG: one agent per document, ' + m.rounds.length + ' round' + (m.rounds.length === 1 ? '' : 's')
      + (m.stopped_early ? ' (stopped early: the agents agreed)' : '')),
      table(head, rows),
      el('p', {}, el('b', {}, 'Kept by the aggregator')), answerList(m.kept, 'kept'),
      el('p', {}, el('b', {}, 'Dropped (agents\' answers the aggregator did not keep)')), answerList(m.dropped, 'dropped')];
  }

  function court(c) {
    const out = [el('h3', {}, 'Reasoning Court: the agents\' trajectories and the judge')];
    for (const t of c.trajectories) {
      out.push(el('details', { open: '' }, el('summary', {}, 'Trajectory of ' + t.agent + ': '
        + (t.answer === '' ? '(no answer)' : t.answer) + (t.forced ? ' (stopped at the step limit)' : '')),
      t.steps.map(s => el('div', { class: 'step' }, el('b', {}, 'Thought ' + s.index + ': '), s.thought, '\n',
        el('b', {}, 'Action: '), s.action, '\n', el('b', {}, 'Observation: '), s.observation,
        s.failure ? el('div', { class: 'error' }, s.failure) : null))));
    }
    if (c.judge) {
      out.push(el('p', { id: 'court-judge' }, {
        selected: 'The judge selected ' + c.judge.agent + '\'s answer: ' + c.judge.answer,
        synthesised: 'The judge synthesised an answer of its own: ' + c.judge.answer,
        fallback: 'The judge\'s output held no usable answer: the agents\' majority answer was taken: ' + c.judge.answer
      }[c.judge.choice] || c.judge.answer));
    }
    return out;
  }

  function c3po(c) {
    return [el('h3', {}, 'C-3PO: the proxy\'s actions (strategy: ' + c.strategy + ')'),
      table(['agent', 'depth', 'action', 'note'], c.actions.map(a => [a.agent, String(a.depth), a.action, a.note || '']))];
  }

  function truthrl(t) {
    const what = {
      answer: 'answered', abstain: 'abstained (I don\'t know)', invalid_premise: 'called the question\'s premise invalid',
      no_box: 'gave no boxed answer (counted as a hallucination)'
    }[t.class] || t.class;
    return [el('h3', {}, 'TruthRL'), el('p', { id: 'truthrl-class' }, 'The model ' + what
      + (t.box ? ': \\boxed{' + t.box + '}' : '.'))];
  }

  function cost(v) {
    const out = [];
    if (v.calls) {
      const c = v.calls;
      out.push(el('h3', {}, 'Cost'), el('p', { id: 'cost' }, count(c.count, 'call') + ' (' + count(c.samples, 'sample') + '), '
        + c.prompt_tokens + ' prompt + ' + c.completion_tokens + ' completion tokens, '
        + c.critical_path_ms + ' ms on the critical path' + (v.timing ? ', ' + v.timing.server_ms + ' ms in the server' : '')
        + (c.failed ? ', ' + c.failed + ' failed' : '') + (c.cache_hits ? ', ' + c.cache_hits + ' from the cache' : '')));
      out.push(table(['role', 'calls', 'prompt tokens', 'completion tokens', 'latency ms'],
        Object.entries(c.by_role || {}).map(([role, r]) => [role, el('td', { class: 'num' }, String(r.calls)),
          el('td', { class: 'num' }, String(r.prompt_tokens)), el('td', { class: 'num' }, String(r.completion_tokens)),
          el('td', { class: 'num' }, String(r.latency_ms))])));
    }
    if (v.truncated) {
      const t = v.truncated;
      out.push(el('p', { id: 'truncated' }, count(t.samples, 'output') + ' cut by the token limit ('
        + Object.entries(t.roles).map(([role, n]) => role + ': ' + n).join(', ') + ')'
        + (t.answer ? '; the answer was read from one, so it may be cut short (the method\'s max-tokens option raises the limit)' : '')));
    }
    if (v.documents) {
      out.push(el('p', { class: 'hint' }, count(v.documents.count, 'document') + ' from the '
        + v.documents.source + (v.ignored && v.ignored.length ? '; ignored: ' + v.ignored.join(', ') : '')));
    }
    return out;
  }

  document.addEventListener('DOMContentLoaded', () => {
    $('key-form').addEventListener('submit', event => {
      event.preventDefault();
      const key = $('key').value.trim();
      if (key) {
        sessionStorage.setItem(KEY, key);
      } else {
        sessionStorage.removeItem(KEY);
      }
      loadModels();
    });
    $('question-form').addEventListener('submit', ask);
    $('method').addEventListener('input', describeMethod);
    $('method').addEventListener('change', describeMethod);
    loadModels();
  });
})();
