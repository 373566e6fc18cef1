import type { email as english } from '../en/email.js';
import type { Translation } from '../translation.js';

export const email: Translation<typeof english> = {
  'email.signature': '— order-importer',
  'email.connection':
    'Verbinding “{name}” ({sandbox, select, yes {de ingebouwde testomgeving op {host}: er werd geen echte opdracht aangemaakt} other {{host}}}).',
  'email.unnamed-sheet': 'een lijst',
  'email.event': 'Melding {event}.',
  'email.next': 'Wat u nu moet doen:',
  'email.warnings': 'Waarschuwingen:',
  'email.done.subject': '{sheet}: {counts}',
  'email.done.subject-todo': '{sheet}: {counts} (actie nodig)',
  'email.done.created': '{count, plural, other {# aangemaakt}}',
  'email.done.duplicate': '{count, plural, other {# al eerder geïmporteerd (dubbel)}}',
  'email.done.invalid': '{count, plural, other {# ongeldig}}',
  'email.done.failed': '{count, plural, other {# mislukt}}',
  'email.done.review': '{count, plural, other {# na te kijken}}',
  'email.done.imported':
    'De lijst {sheet} is geïmporteerd: {total, plural, one {# rij} other {# rijen}}, {counts}.',
  'email.done.unreadable':
    'De lijst kon niet gelezen worden: {reason}. Verbeter de lijst en zet ze opnieuw in de inbox.',
  'email.done.to-fix':
    '{count, plural, one {# rij is mislukt of ongeldig: verbeter ze in de map failed/ van het rapport (de kolom error zegt wat er mis is) en zet die map opnieuw in de inbox.} other {# rijen zijn mislukt of ongeldig: verbeter ze in de map failed/ van het rapport (de kolom error zegt wat er mis is) en zet die map opnieuw in de inbox.}}',
  'email.done.review-next':
    '{count, plural, one {# rij moet nagekeken worden: misschien bestaat de opdracht al. Kijk needs-review.csv na voor u ze opnieuw verstuurt, zodat geen enkele opdracht twee keer aangemaakt wordt.} other {# rijen moeten nagekeken worden: misschien bestaan die opdrachten al. Kijk needs-review.csv na voor u ze opnieuw verstuurt, zodat geen enkele opdracht twee keer aangemaakt wordt.}}',
  'email.done.nothing': 'Niets: elke rij werd aangemaakt of was al eerder geïmporteerd.',
  'email.done.report-in': 'Het rapport staat in {folder}.',
  'email.done.attached': 'report.csv zit in bijlage: één regel per rij van de lijst.',
  'email.done.not-attached': 'report.csv zit niet in bijlage: {reason}.',
  'email.done.ids': 'Lijst {sheetId}, melding {event}.',
  'email.attach.no-folder': 'de melding noemt geen rapportmap',
  'email.attach.outside': 'de map {folder} staat niet in REPORTS_DIR ({reportsDir})',
  'email.attach.not-file': '{path} is geen gewoon bestand',
  'email.attach.gone': 'het bestand staat niet meer op {path} (intussen verplaatst of verwijderd)',
  'email.attach.denied': '{path} kan niet gelezen worden ({code})',
  'email.unreadable.subject': '{sheet} kan niet gelezen worden',
  'email.unreadable.intro':
    'De lijst {sheet} kan niet gelezen worden; er werd dus geen enkele opdracht van aangemaakt:',
  'email.unreadable.no-reason': '(geen reden opgegeven)',
  'email.unreadable.moved': 'Ze werd verplaatst naar {folder}, met error.txt ernaast.',
  'email.unreadable.next': 'Wat u nu moet doen: verbeter de lijst en zet ze opnieuw in de inbox.',
  'email.changed.subject':
    '{sheet}: {count, plural, one {# opdracht} other {# opdrachten}} gewijzigd',
  'email.changed.intro':
    'Bij {sheet} {count, plural, one {is # opdracht} other {zijn # opdrachten}} gewijzigd:',
  'email.changed.sheet-id': 'lijst {sheetId}',
  'email.changed.order': 'rij {row}, opdracht {order}: {state}',
  'email.changed.order-reference': 'rij {row} ({reference}), opdracht {order}: {state}',
  'email.changed.from-to': '{before} → {after}',
  'email.state.reason': '{status} ({reason})',
  'email.state.visits': '{state} [{visits}]',
  'email.visit': '{product} {date}',
  'email.visit.by': '{product} {date}, keurder {inspector}',
  'email.visit.no-date': 'nog geen datum',
  'email.order-status.not-found': 'niet gevonden',
  'email.changed.at': '{address} — {order}',
};
