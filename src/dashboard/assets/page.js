// Every page of the dashboard is whole as the server sends it, every text escaped; this script
// only makes it better. It shows times in the browser's own zone, written as the page's language
// writes them in Belgium, with a 24-hour clock: the server cannot know the zone. And while a page shows something still moving (an
// element marked data-live), it asks for the same page again every two seconds and swaps in
// the parts marked data-part, so that sheet names (the users' own) never pass through a script
// as HTML.

const SHOW = {
  time: { hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' },
  // A day and its time to the minute, as the server writes it: seconds are the machine's.
  'date-time': {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  },
};

/** The page's language (`<html lang>`) as Belgians of that language write dates. */
const LOCALES = { nl: 'nl-BE', fr: 'fr-BE', en: 'en-GB' };
const locale = LOCALES[document.documentElement.lang];

function showLocalTimes(root) {
  const formats = {};
  for (const time of root.querySelectorAll('time[datetime]')) {
    const at = new Date(time.dateTime);
    if (Number.isNaN(at.getTime())) continue;
    const show = time.dataset.show === 'time' ? 'time' : 'date-time';
    formats[show] ??= new Intl.DateTimeFormat(locale, SHOW[show]);
    time.textContent = formats[show].format(at);
    time.title = at.toISOString();
  }
}

async function refresh() {
  const said = document.getElementById('updated');
  try {
    const answer = await fetch(location.pathname + location.search, { cache: 'no-store' });
    if (!answer.ok) throw new Error(`the dashboard answered ${answer.status}`);
    // A parsed document runs no script: its parts are adopted as inert nodes.
    const next = new DOMParser().parseFromString(await answer.text(), 'text/html');
    for (const part of next.querySelectorAll('[data-part][id]')) {
      document.getElementById(part.id)?.replaceWith(document.adoptNode(part));
    }
    showLocalTimes(document);
    if (document.querySelector('[data-live]') === null) clearInterval(timer);
  } catch (error) {
    // The words come with the page, in its language (data-unreachable on <body>).
    if (said !== null) said.textContent = `${document.body.dataset.unreachable ?? ''} ${error}`;
  }
}

showLocalTimes(document);
const timer =
  document.querySelector('[data-live]') === null ? undefined : setInterval(refresh, 2000);
