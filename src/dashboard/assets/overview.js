// Refreshes the imports overview every two seconds. The server renders the page whole, every
// text escaped; this asks for it again and swaps in the parts that change, so that sheet names
// (the users' own) never pass through a script as HTML. It also shows times in the browser's
// own zone and format, which the server cannot know.

/** The ids of the page's parts that change, each replaced whole. */
const PARTS = ['updated', 'imports', 'left-behind'];

function showLocalTimes(root) {
  for (const time of root.querySelectorAll('time[datetime]')) {
    const at = new Date(time.dateTime);
    if (Number.isNaN(at.getTime())) continue;
    time.textContent = time.dataset.show === 'time' ? at.toLocaleTimeString() : at.toLocaleString();
  }
}

async function refresh() {
  try {
    const answer = await fetch('/', { cache: 'no-store' });
    if (!answer.ok) throw new Error(`the dashboard answered ${answer.status}`);
    // A parsed document runs no script: its parts are adopted as inert nodes.
    const next = new DOMParser().parseFromString(await answer.text(), 'text/html');
    for (const id of PARTS) {
      const part = next.getElementById(id);
      if (part !== null) document.getElementById(id)?.replaceWith(document.adoptNode(part));
    }
    showLocalTimes(document);
  } catch (error) {
    document.getElementById('updated').textContent = `Cannot reach the importer: ${error}`;
  }
}

showLocalTimes(document);
setInterval(refresh, 2000);
