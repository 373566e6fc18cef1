import type { dashboard as english } from '../en/dashboard.js';
import type { Translation } from '../translation.js';

export const dashboard: Translation<typeof english> = {
  'dashboard.language': 'Taal',

  'dashboard.nav.imports': 'Lijsten',
  'dashboard.nav.queues': 'Wachtrijen',
  'dashboard.nav.health': 'Systeemstatus',
  'dashboard.title': '{page} · order-importer',
  'dashboard.unreachable': 'De importer is niet bereikbaar:',

  'dashboard.overview.title': 'order-importer: lijsten',
  'dashboard.overview.heading': 'Lijsten',
  'dashboard.overview.updated':
    '{count, plural, one {# lijst} other {# lijsten}}, bijgewerkt: {time}',
  'dashboard.overview.unreadable': 'De lijsten kunnen nu niet gelezen worden: {reason}',
  'dashboard.column.sheet': 'Lijst',
  'dashboard.column.received': 'Ontvangen',
  'dashboard.column.state': 'Status',
  'dashboard.column.progress': 'Voortgang',
  'dashboard.column.created': 'Aangemaakt',
  'dashboard.column.invalid': 'Ongeldig',
  'dashboard.column.failed': 'Mislukt',
  'dashboard.column.needsReview': 'Na te kijken',
  'dashboard.column.duplicate': 'Dubbel',
  'dashboard.column.duration': 'Duur',
  'dashboard.column.reportOrders': 'Rapport · opdrachten',
  'dashboard.column.connection': 'Verbinding · API',
  'dashboard.duplicateOf': 'zelfde inhoud als {sheet}',
  'dashboard.sandbox': 'testomgeving',
  'dashboard.pace': '{rate} rijen/s',
  'dashboard.pace.left': '{rate} rijen/s · nog {left}',
  'dashboard.failedZip': 'failed/ (zip)',
  'dashboard.duration.seconds': '{seconds}\u00A0s',
  'dashboard.duration.minutes': '{minutes}\u00A0min {seconds}\u00A0s',
  'dashboard.duration.hours': '{hours}\u00A0u {minutes}\u00A0min',

  'dashboard.state.queued': 'in de wachtrij',
  'dashboard.state.reading': 'wordt gelezen',
  'dashboard.state.processing': 'bezig',
  'dashboard.state.reporting': 'rapport in opmaak',
  'dashboard.state.done': 'klaar',
  'dashboard.state.unreadable': 'onleesbaar',

  'dashboard.status.created': 'aangemaakt',
  'dashboard.status.invalid': 'ongeldig',
  'dashboard.status.failed': 'mislukt',
  'dashboard.status.needsReview': 'na te kijken',
  'dashboard.status.duplicate': 'dubbel',
  'dashboard.status.pending': 'in behandeling',
  'dashboard.status.all': 'alle',

  'dashboard.notTaken.heading': 'Niet opgenomen lijsten',
  'dashboard.notTaken.intro':
    'Deze bestanden zijn in de inbox blijven staan. Los het vermelde probleem op en zet ze er opnieuw in.',
  'dashboard.notTaken.unreadable':
    'De niet opgenomen lijsten kunnen nu niet gelezen worden: {reason}',
  'dashboard.notTaken.seen': 'Gezien op',
  'dashboard.notTaken.file': 'Bestand',
  'dashboard.notTaken.why': 'Reden',

  'dashboard.orders.unreadable': 'status.csv kon niet gelezen worden: {reason}',
  'dashboard.orders.none': 'geen opdrachten',
  'dashboard.orders.ofStatus': '{count} {status}',
  'dashboard.orders.noStatus': '(geen status)',
  'dashboard.orders.others':
    '{orders} met {statuses, plural, one {# andere status} other {# andere statussen}}',
  'dashboard.orders.nextInspection': 'volgende keuring: {date}',
  'dashboard.orders.noneAhead': 'geen keuring meer gepland',
  'dashboard.orders.checked': 'opgevraagd: {time}',
  'dashboard.orders.more': 'en nog {count}',
  'dashboard.orders.notPlanned': 'nog niet ingepland',
  'dashboard.orders.noInspector': 'nog geen keurder',

  'dashboard.fact.connection': 'Verbinding',
  'dashboard.fact.received': 'Ontvangen',
  'dashboard.fact.reported': 'Rapport klaar',
  'dashboard.fact.duration': 'Duur',
  'dashboard.fact.rows': 'Rijen',
  'dashboard.fact.rowsEnded': '{ended} van {total} afgewerkt',
  'dashboard.fact.sameContent': 'Zelfde inhoud als',
  'dashboard.fact.workedBy': 'Verwerkt door',
  'dashboard.fact.workers': 'de workers van gegevensmap {folder} (installatie {installation})',
  'dashboard.fact.workersOf': 'de workers van de gegevensmap (installatie {installation})',
  'dashboard.fact.report': 'Rapport',
  'dashboard.fact.orders': 'Opdrachten',
  'dashboard.sheet.unreadable': 'Deze lijst kon niet gelezen worden: {reason}',
  'dashboard.sheet.byStatus': 'Rijen per status',
  'dashboard.rows.unreadable': 'De rijen kunnen nu niet gelezen worden: {reason}',
  'dashboard.rows.noReport':
    'report.csv staat niet in de rapportmap van deze lijst (verplaatst of verwijderd?).',
  'dashboard.rows.notCounted': 'De rijen verschijnen zodra ze geteld zijn.',
  'dashboard.rows.noRows': 'Er zijn geen rijen om te tonen.',
  'dashboard.rows.none':
    '{status, select, created {Hier staan geen aangemaakte rijen.} invalid {Hier staan geen ongeldige rijen.} failed {Hier staan geen mislukte rijen.} needsReview {Hier staan geen rijen om na te kijken.} duplicate {Hier staan geen dubbele rijen.} other {Hier staan geen rijen.}}',
  'dashboard.rows.range':
    '{status, select, created {Aangemaakte rijen} invalid {Ongeldige rijen} failed {Mislukte rijen} needsReview {Na te kijken rijen} duplicate {Dubbele rijen} other {Rijen}} {from}–{to} van {matching}.',
  'dashboard.rows.running':
    'Deze lijst wordt nog geïmporteerd: de rijen verschijnen hier zodra ze afgewerkt zijn, met adres en contactpersoon zodra het rapport klaar is.',
  'dashboard.rows.partly':
    'Voor deze status zijn nog maar {looked} van de {ended} afgewerkte rijen doorzocht; het rapport bevat ze straks allemaal.',
  'dashboard.rows.firstRow': 'eerste rij {row}',
  'dashboard.rows.previous': '‹ Vorige',
  'dashboard.rows.next': 'Volgende ›',
  'dashboard.rows.page': 'Pagina {page} van {pages}',
  'dashboard.rows.pages': 'Pagina’s',
  'dashboard.head.row': 'Rij',
  'dashboard.head.status': 'Status',
  'dashboard.head.reference': 'Referentie',
  'dashboard.head.address': 'Adres',
  'dashboard.head.contact': 'Contactpersoon',
  'dashboard.head.error': 'Fout',
  'dashboard.head.order': 'Opdracht',
  'dashboard.head.files': 'Bijlagen',
  'dashboard.head.orderStatus': 'Status opdracht',
  'dashboard.head.sheet': 'Lijst',
  'dashboard.unknownSheet.heading': 'Lijst niet gevonden',
  'dashboard.unknownSheet.text': 'Er is hier geen lijst met id “{id}”.',
  'dashboard.unknownSheet.back': 'Alle lijsten',
  'dashboard.badQuery.heading': 'Geen pagina van deze lijst',
  'dashboard.badQuery.text':
    'De rijen worden getoond per status ({statuses}) en per paginanummer vanaf 1.',
  'dashboard.badQuery.back': 'Alle rijen van deze lijst',

  'dashboard.search.heading': 'Zoeken',
  'dashboard.search.button': 'Zoeken',
  'dashboard.search.box': 'Referentie, adres of contactpersoon',
  'dashboard.search.intro':
    'Zoek een referentie, een adres of een contactpersoon in de recentste rapporten.',
  'dashboard.search.unreadable': 'De rapporten kunnen nu niet doorzocht worden: {reason}',
  'dashboard.search.tooLong': 'een zoekterm is één tekst van hoogstens 100 tekens.',
  'dashboard.search.busy':
    '{count, plural, one {Er loopt al # zoekactie} other {Er lopen al # zoekacties}}; probeer het over enkele seconden opnieuw.',
  'dashboard.search.searched':
    '{found, plural, =0 {Niets gevonden} other {# gevonden}} voor “{query}” in {sheets, plural, one {# lijst met een rapport} other {# lijsten met een rapport}}, {rows, plural, one {# rij} other {# rijen}}{stopped, select, yes {; {why}} other {}}.',
  'dashboard.search.stoppedSheets':
    'enkel de laatste {count} lijsten met een rapport worden doorzocht',
  'dashboard.search.stoppedHits': 'gestopt bij {count} gevonden rijen',
  'dashboard.search.stoppedRows': 'gestopt na {count} rijen',
  'dashboard.search.stoppedTime': 'gestopt na {seconds} s',
  'dashboard.search.running':
    'Lijsten die nog geïmporteerd worden ({count}), worden doorzocht zodra hun rapport klaar is.',
  'dashboard.search.unreadableReports':
    'Het rapport van {names} kon niet tot het einde gelezen worden (gewijzigd op de schijf nadat het geschreven werd?).',

  'dashboard.login.heading': 'Aanmelden',
  'dashboard.login.text':
    'Dit dashboard vraagt een gebruikersnaam en wachtwoord: die van DASHBOARD_USER en DASHBOARD_PASSWORD.',
  'dashboard.notFound.heading': 'Pagina niet gevonden',
  'dashboard.notFound.text': 'Het dashboard heeft hier geen pagina.',
  'dashboard.foreignHost':
    'Dit dashboard antwoordt niet op {named, select, yes {de hostnaam {host}} other {een verzoek zonder hostnaam}}. Is dat de naam van deze computer, voeg hem dan toe aan DASHBOARD_HOSTS (gescheiden door komma’s), of open het dashboard op http://localhost.',
  'dashboard.writeRefused':
    'Het dashboard toont alleen de imports: het kan geen taken of wachtrijen toevoegen, opnieuw starten, wijzigen of verwijderen.',
  'dashboard.noReportFile.heading': 'Bestand niet gevonden',
  'dashboard.noReportFile.text': 'Er is (nog) geen {file} voor deze lijst.',
  'dashboard.noFailed.text': 'Deze lijst heeft geen map failed/.',
  'dashboard.search.next': 'Volgende keuring',
  'dashboard.search.notRead': 'nog niet opgevraagd',

  // De verbeterronde: een lijst uit failed/ teruggezet, gekoppeld aan de lijst die ze verbetert.
  'dashboard.fix.sheet': '{name} van {time} ({id})',
  'dashboard.fix.fixes': 'verbetert rijen van {sheet}',
  'dashboard.fix.fixedLater':
    '{count, plural, one {# rij later verbeterd} other {# rijen later verbeterd}} in {sheets}',
  'dashboard.fix.row': 'later verbeterd in {sheet}',
  'dashboard.fact.fixes': 'Verbetert',
  'dashboard.fact.fixedLater': 'Later verbeterd',
  'dashboard.fact.open': 'Openstaande problemen',

  // The agenda (who comes when).
  'dashboard.nav.agenda': 'Agenda',
  'dashboard.agenda.heading': 'Agenda',
  'dashboard.agenda.intro':
    'Wie komt wanneer: elke keuring van de opdrachten die de afgelopen {days, plural, one {# dag} other {# dagen}} opgevraagd zijn, op datum en uur (Brusselse tijd).',
  'dashboard.agenda.office': 'Kantoor',
  'dashboard.agenda.allOffices': 'Alle kantoren',
  'dashboard.agenda.from': 'Van',
  'dashboard.agenda.to': 'Tot',
  'dashboard.agenda.status': 'Status',
  'dashboard.agenda.allStatuses': 'Alle statussen',
  'dashboard.agenda.show': 'Toon',
  'dashboard.agenda.col.day': 'Dag',
  'dashboard.agenda.col.time': 'Uur',
  'dashboard.agenda.col.product': 'Keuring',
  'dashboard.agenda.col.address': 'Adres',
  'dashboard.agenda.col.contact': 'Contactpersoon',
  'dashboard.agenda.col.phone': 'Telefoon',
  'dashboard.agenda.col.inspector': 'Keurder',
  'dashboard.agenda.col.status': 'Status opdracht',
  'dashboard.agenda.col.reference': 'Referentie',
  'dashboard.agenda.col.sheet': 'Lijst',
  'dashboard.agenda.col.row': 'Rij',
  'dashboard.agenda.col.office': 'Kantoor',
  'dashboard.agenda.col.orderId': 'Opdracht',
  'dashboard.agenda.counted':
    '{count, plural, =0 {Geen keuring} one {# keuring} other {# keuringen}} van {from} tot {to}.',
  'dashboard.agenda.unplanned':
    '{count, plural, =0 {Geen keuringen die nog gepland moeten worden.} one {# keuring nog niet gepland} other {# keuringen nog niet gepland}}',
  'dashboard.agenda.cancelled': 'geannuleerd',
  'dashboard.agenda.download': 'Downloaden:',
  'dashboard.agenda.calendarFile': 'agenda (.ics)',
  'dashboard.agenda.feeds': 'Agenda-abonnementen',
  'dashboard.agenda.feedsText':
    'Abonneer u in Outlook of Google Agenda op de keuringen van een kantoor via het adres hieronder. Geef het niet door: wie het heeft, ziet de bezoeken van dat kantoor.',
  'dashboard.agenda.badQuery':
    'Deze filters zijn ongeldig: een datum moet de vorm JJJJ-MM-DD hebben. In plaats daarvan wordt de agenda van de komende 30 dagen getoond.',
  'dashboard.agenda.ics.contact': 'Contactpersoon',
  'dashboard.agenda.ics.phone': 'Telefoon',
  'dashboard.agenda.ics.inspector': 'Keurder',
  'dashboard.agenda.ics.reference': 'Referentie',
  'dashboard.agenda.ics.order': 'Opdracht',
  'dashboard.agenda.ics.name': 'Keuringen {office}',
  'dashboard.agenda.csvFile': 'CSV',
  'dashboard.agenda.xlsxFile': 'Excel',
  'dashboard.login.users':
    'Dit dashboard vraagt uw eigen gebruikersnaam en wachtwoord, aangemaakt met order-importer dashboard-user.',
  // Tooltips: a sheet's whole id beside its short one, an attachment's id at its name.
  'dashboard.sheet.idTitle': 'Lijst {id}',
  'dashboard.file.idTitle': 'Bestands-id {id}',
  'dashboard.redis.away':
    'Redis antwoordt niet (sinds {since}): {asOf, select, none {er kon nog niets uit gelezen worden} other {wat getoond wordt, werd gelezen om {asOf}}}. De pagina is weer bij zodra Redis terug is.',
};
