import type { cli as english } from '../en/cli.js';
import type { Translation } from '../translation.js';

export const cli: Translation<typeof english> = {
  'cli.unexpected': 'onverwachte fout: {details}',

  'cli.error.import.no-such-file':
    '{path} {kind, select, not_file {is geen bestand} other {bestaat niet}}.',
  'cli.error.import.stopped': 'de import is gestopt: {reason}',
  'cli.error.config.invalid.unreadable': '--config {file} kan niet gelezen worden: {reason}.',
  'cli.error.config.invalid.json': '--config {file} is geen geldige JSON: {mistake}.',
  'cli.error.config.invalid.not-object':
    '--config {file} moet een JSON-object met instellingen bevatten.',
  'cli.error.config.invalid.unknown':
    '--config {file}: onbekende instelling {unknown}; bekende instellingen: {known}.',
  'cli.error.config.invalid.setting':
    '{from, select, file {“{setting}” in {file}} other {{source}}}: {at}{issue, select, required {is verplicht} type {moet {expected, select, number {een getal} int {een geheel getal} string {tekst} boolean {true of false} array {een reeks} object {een object} other {een {expected}}} zijn} empty {mag niet leeg zijn} at_least {moet minstens {limit} zijn} more_than {moet meer dan {limit} zijn} at_most {mag hoogstens {limit} zijn} less_than {moet minder dan {limit} zijn} one_of {moet een van deze waarden zijn: {choices}} url {moet een URL zijn} not_url {is geen URL: geef ze als https://host[:poort][/pad]} scheme {moet een http://- of https://-URL zijn} credentials {mag geen gebruikersnaam of wachtwoord bevatten (user:pass@): geef het token met API_TOKEN of API_TOKEN_FILE} query {mag geen query (?…) of fragment (#…) bevatten} other {{why}}} (opgegeven: {got}).',
  'cli.error.api.token-missing':
    'API_BASE_URL is ingesteld, maar er is geen token: stel API_TOKEN of API_TOKEN_FILE in.',
  'cli.error.api.token-refused':
    'De API op {url} weigert het token ({reason}): controleer {connection, select, none {API_TOKEN / API_TOKEN_FILE} other {het tokenbestand van verbinding “{connection}” ({file})}}.',
  'cli.error.api.unusable': 'De API op {url} is niet bruikbaar: {reason}',
  'cli.error.api.no-answer':
    'De API op {url} heeft binnen {seconds} s (API_WAIT_S) niet geantwoord: {reason} Controleer of ze draait en of API_BASE_URL juist is, of verhoog API_WAIT_S.',
  'cli.error.redis.unavailable.configured':
    'REDIS_URL {url} antwoordt niet ({problem}): start die Redis, of verwijder REDIS_URL om een lokale te gebruiken.',
  'cli.error.redis.unavailable.no-private':
    'Op {url} antwoordt geen Redis, en onder {dir} draait geen eigen redis-server van de importer: start eerst order-importer watch (of worker), of stel REDIS_URL in.',
  'cli.error.redis.unavailable.not-installed':
    'Op {url} antwoordt geen Redis en redis-server is niet geïnstalleerd: installeer hem (Debian/Ubuntu: apt-get install redis-server; macOS: brew install redis) of stel REDIS_URL in.',
  'cli.error.redis.unavailable.not-started':
    'Er kon geen eigen redis-server gestart worden in {dir}: {reason}',
  'cli.error.redis.no-answer':
    'Redis op {url} antwoordt al {seconds} s niet (REDIS_WAIT_S): de import stopt. Start dezelfde import opnieuw zodra Redis terug is: hij gaat verder waar hij gestopt is.',
  'cli.error.redis.data-lost':
    'Redis op {url} is zijn gegevens kwijt (lijst {sheetId} is niet meer gekend: Redis is opnieuw opgestart zonder AOF, of de sleutels zijn gewist): de import stopt. Opdrachten waarvan het antwoord verloren ging, worden ter controle opzijgezet en nooit opnieuw verstuurd. Voer `order-importer ledger rebuild` uit voor u opnieuw importeert, zodat de bestaande opdrachten als dubbel herkend worden en er geen tweede opdrachten bij komen.',

  'cli.status':
    '{status, select, created {aangemaakt} duplicate {dubbel} invalid {ongeldig} failed {mislukt} needs_review {na te kijken} pending {in behandeling} other {{status}}}',
  'cli.status.count':
    '{count, plural, other {#}} {status, select, created {aangemaakt} duplicate {dubbel} invalid {ongeldig} failed {mislukt} needs_review {na te kijken} pending {in behandeling} other {{status}}}',
  'cli.row': 'rij {row}',
  'cli.row.line': 'rij {row} (regel {line})',
  'cli.row.reference': 'referentie {reference}',
  'cli.row.order': '(opdracht {order})',

  'cli.import.queued':
    '{resumed, select, yes {Hervat:} other {In de wachtrij:}} {sheet} als lijst {sheetId}.',
  'cli.import.queued-awaits':
    '{resumed, select, yes {Hervat:} other {In de wachtrij:}} {sheet} als lijst {sheetId}: dezelfde inhoud wordt al geïmporteerd als lijst {other} van gegevensmap {dataDir} (installatie {installation}); deze lijst wacht tot de workers van die map die import afgewerkt hebben, en meldt haar rijen dan als dubbel.',
  'cli.import.no-workers':
    'Geen workers in dit proces (--no-workers): er wordt gewacht op `order-importer worker`-processen met {connection, select, none {dezelfde API_BASE_URL en hetzelfde token} other {de verbinding “{connection}” in hun configuratiebestand}} (verbinding {id}, {url}) en deze gegevensmap {dataDir} (installatie {installation}), waar de kopieën van de lijsten staan; workers van andere verbindingen of gegevensmappen laten deze rijen liggen.',
  'cli.import.interrupted':
    'Onderbroken: de rijen die al bezig zijn, worden nog afgewerkt; start dezelfde import opnieuw om de rest te hervatten.',
  'cli.import.planning':
    'De testomgeving plant deze opdrachten {seconds} s na het aanmaken in: voer daarna `order-importer status` uit om de datums en keurders te zien.',
  'cli.import.notifications-waiting':
    'Wachten tot {count, plural, one {# melding} other {# meldingen}} bezorgd {count, plural, one {is} other {zijn}}…',
  'cli.import.notifications-left':
    '{count, plural, one {# melding is} other {# meldingen zijn}} nog niet bezorgd (de ontvanger is onbereikbaar of overbelast): ze blijven in de wachtrij, en de volgende `order-importer watch` of `worker` op deze Redis bezorgt ze.',
  'cli.summary.sheet': 'lijst',
  'cli.summary.rows': 'rijen',
  'cli.summary.unreadable': '{sheet}: kan niet gelezen worden: {error}',
  'cli.summary.duplicate':
    '{sheet}: al eerder geïmporteerd als lijst {other}; er is niets opnieuw verstuurd.',
  'cli.summary.warning': '{sheet}: let op: {warning}',
  'cli.summary.report': 'Rapport: {dir}',
  'cli.reasons.head': '{count, plural, one {# rij} other {# rijen}} niet aangemaakt',
  'cli.reasons.unreadable':
    '{file} kan niet gelezen worden ({code}): de redenen worden niet getoond.',
  'cli.reasons.more': '… en nog {count, number} — zie {file}',

  'cli.progress.done': 'klaar: {count, plural, one {# rij} other {# rijen}}',
  'cli.progress.queued': 'in de wachtrij',
  'cli.progress.reading': 'wordt gelezen…',
  'cli.progress.rows': '{final}/{total, plural, one {# rij} other {# rijen}}',
  'cli.progress.rate': '{rate} rijen/s',
  'cli.progress.eta': 'nog {duration}',
  'cli.progress.not-created': 'tot nu toe niet aangemaakt: {count, number}',

  'cli.validate.missing': 'kan niet gecontroleerd worden: {reason}',
  'cli.validate.unreadable': 'kan niet gelezen worden: {reason}',
  'cli.validate.not-a-file': '{path} is geen bestand.',
  'cli.validate.no-such-file': '{path} bestaat niet.',
  'cli.validate.cannot-open': '{path} kan niet geopend worden ({code}).',
  'cli.validate.checked': '{name}: {count, plural, one {# rij} other {# rijen}} gecontroleerd…',
  'cli.validate.warning': 'let op: {warning}',
  'cli.validate.counts':
    '{total, plural, one {# rij} other {# rijen}}: {valid, plural, other {# geldig}}, {invalid, plural, other {# ongeldig}}',

  'cli.done.counts': 'Klaar: {name} (lijst {sheetId}): {counts}.',
  'cli.done.unreadable':
    'Klaar: {name} (lijst {sheetId}): de lijst kan niet gelezen worden: {error}',
  'cli.done.no-rows': 'geen rijen',
  'cli.done.report': 'Rapport: {dir}/',
  'cli.done.see': '— zie {page}',
  'cli.watch.sandbox':
    'De opdrachten gaan naar de ingebouwde testomgeving op {url}, niet naar de keuringsfirma.',
  'cli.watch.api': 'De opdrachten gaan naar de API op {url} (verbinding “{name}”).',
  'cli.watch.watching':
    'De map {inbox} wordt opgevolgd{polling, select, yes { (elke seconde nagekeken)} other {}}: zet er een lijst in (met haar bijlagen).',
  'cli.watch.watching-offices':
    'De map {inbox} wordt opgevolgd{polling, select, yes { (elke seconde nagekeken)} other {}}: zet een lijst (met haar bijlagen) in de submap van haar kantoor ({offices}); een lijst op een andere plaats wordt niet opgenomen.',
  'cli.watch.office-inbox': '{folder}/ voor “{name}”',
  'cli.watch.mapping-every': 'Elke lijst wordt gelezen met de mapping {file}.',
  'cli.watch.mapping-config':
    'Lijsten zonder mapping.json ernaast{connections, select, yes { of zonder mapping van hun verbinding} other {}} worden gelezen met de mapping {file}.',
  'cli.watch.reports': 'De rapporten komen in {dir}.',
  'cli.dashboard.url': 'Dashboard: {url}/  (wachtrijen: {url}/queues)',
  'cli.dashboard.hosts':
    'Het dashboard antwoordt alleen op de hostnamen {hosts}{advice, select, yes {: voeg de namen waarmee het bereikt wordt toe aan DASHBOARD_HOSTS} other {}}.',
  'cli.stop-hint': 'Druk op Ctrl+C om te stoppen.',
  'cli.stopped': 'Gestopt.',
  'cli.watch.stopping':
    '{signal}: er worden geen lijsten meer opgenomen; de rijen die al bezig zijn, worden nog afgewerkt (druk nogmaals op Ctrl+C om meteen te stoppen)…',
  'cli.watch.stop-now':
    'De importer stopt nu; de rijen die bezig waren, gaan bij de volgende start verder vanaf hun laatst bewaarde stap.',
  'cli.left.unknown':
    'Wat nog overblijft, kon niet geteld worden (Redis antwoordde niet); het wordt hervat bij de volgende start.',
  'cli.left.rows':
    '{rows, plural, one {# rij blijft} other {# rijen blijven}} over voor de volgende start (in {sheets, plural, one {# lijst} other {# lijsten}}).',
  'cli.left.rows-also':
    '{rows, plural, one {# rij blijft} other {# rijen blijven}} over voor de volgende start (in {sheets, plural, one {# lijst} other {# lijsten}}), en {also}.',
  'cli.left.uncounted':
    '{count, plural, one {# lijst} other {# lijsten}} waarvan de rijen nog niet geteld zijn',
  'cli.left.unreported': 'het rapport van {count, plural, one {# lijst} other {# lijsten}}',
  'cli.left.none':
    'Er blijven geen rijen over voor de volgende start: elke opgenomen lijst is klaar.',
  'cli.left.only': 'Blijft over voor de volgende start: {also}.',
  'cli.intake.took': '{file} opgenomen als lijst {sheetId}.',
  'cli.intake.took-for': '{file} opgenomen als lijst {sheetId} voor verbinding “{connection}”.',
  'cli.intake.unreadable': '{file} kan niet gelezen worden: verplaatst naar {folder}.',
  'cli.intake.recovered':
    'Afgewerkt: de opname van {count, plural, one {# lijst} other {# lijsten}}, die door een eerdere stop onderbroken werd.',
  'cli.intake.stranded':
    '{folder} stond in de wachtrij, maar Redis weet er niets van (is Redis zijn gegevens kwijt?): de map blijft onaangeroerd. Kijk na welke rijen al een opdracht hebben en zet de lijst dan opnieuw in de inbox.',
  'cli.schedule':
    'Planning “{name}” ({cron}) doorzoekt {dir}{connection, select, none {} other { voor verbinding “{connection}”}}{missing, select, yes {, die er (nog) niet is: het doorzoeken mislukt tot ze er is} other {}}.',
  'cli.status-sync.off':
    'De status van de opdrachten wordt niet volgens een planning opgevraagd (STATUS_SYNC_CRON off): gebruik daarvoor `order-importer status`.',
  'cli.status-sync.on':
    'Volgens “{cron}” (STATUS_SYNC_CRON) wordt de status opgevraagd van de opdrachten van de lijsten met een rapport van de laatste {days} dagen; hij komt in de status.csv van elk rapport.',
  'cli.redis.private':
    'Redis: een eigen redis-server op {url} (gegevens onder DATA_DIR/redis, AOF aan).',
  'cli.redis.url':
    'Redis: {url}{local, select, yes { (de lokale standaard; stel REDIS_URL in om een andere te gebruiken)} other {}}.',
  'cli.redis.forgetful':
    '{where} {kind, select, none {bewaart niets op schijf (geen AOF, geen snapshots): } snapshots {bewaart alleen snapshots{rules}, geen AOF: wat sinds de laatste snapshot geschreven is, gaat bij een herstart verloren; } other {heeft geen AOF, en of hij snapshots neemt, kan niet gevraagd worden (CONFIG wordt geweigerd): als hij niets op schijf bewaart, }}verliest een herstart de lopende imports en het register van dubbels; de importer stopt dat werk dan en weigert te importeren tot `order-importer ledger rebuild` het register opnieuw heeft opgebouwd uit de rapporten. Zet AOF aan (appendonly yes) om ze te bewaren.',
  'cli.redis.at': 'Redis op {url}',
  'cli.sandbox.banner':
    '*** Er is geen API_BASE_URL ingesteld: de opdrachten gaan naar de INGEBOUWDE TESTOMGEVING, niet naar de keuringsfirma. ***',
  'cli.sandbox.where':
    '*** Testomgeving op {url} (gegevens onder DATA_DIR/sandbox). Stel API_BASE_URL en API_TOKEN in voor echte opdrachten. ***',
  'cli.connection':
    'Verbinding “{name}”: opdrachten naar {sandbox, select, yes {de INGEBOUWDE TESTOMGEVING ({host})} other {{host} ({url}), niet de ingebouwde testomgeving}}{mapping, select, none {} other {; haar lijsten gelezen met mapping {mapping}}}.',
  'cli.outage.away':
    '{what, select, api {De API op {url}} other {Redis op {url}}} antwoordt niet ({reason}): {meanwhile, select, api_wait {er wordt tot {seconds} s op gewacht (API_WAIT_S)} rows {de rijen wachten erop en worden opnieuw geprobeerd} other {het werk wacht erop en gaat verder zodra die weer antwoordt}}.',
  'cli.outage.back':
    '{what, select, api {De API op {url}} other {Redis op {url}}} antwoordt weer, na {minutes, select, none {{seconds} s} other {{minutes} min {seconds} s}}.',
  'cli.redis.forgot':
    'Redis is terug, maar zonder zijn gegevens (hij bewaart niets op schijf): het werk van verbinding “{connection}” stopt, er wordt geen opdracht opnieuw verstuurd, en opdrachten waarvan het antwoord verloren ging, worden ter controle opzijgezet. Voer `order-importer ledger rebuild` uit voor u opnieuw importeert.',
  // status
  'cli.status.none':
    'In {dir} is er geen lijst met een rapport van de laatste {days} dagen (STATUS_DAYS).',
  'cli.status.sheet.final':
    '{sheetId} ({dir}): {orders, plural, one {# opdracht met een definitieve status} other {# opdrachten, allemaal met een definitieve status}} ({statuses}): niet opnieuw opgevraagd.',
  'cli.status.sheet.read': '{sheetId} ({dir}): {parts}.',
  'cli.status.sheet.error': '{sheetId} ({dir}): {error}',
  'cli.status.orders': '{count, plural, one {# opdracht} other {# opdrachten}}',
  'cli.status.by-status': '{count, number} {status}',
  'cli.status.changed': '{count, plural, other {# gewijzigd}}',
  'cli.status.unreadable':
    '{count, plural, other {# nu niet leesbaar (hun vorige regels blijven staan)}}',
  'cli.status.not-configured':
    'geïmporteerd via verbinding{name, select, none {} other { “{name}”}} ({id, select, none {niet vermeld in de summary.json van de lijst} other {{id}}}), die hier niet ingesteld is: niet opgevraagd, want de opdrachten kunnen alleen met het token van die verbinding opgevraagd worden.',
  'cli.status.unreadable-order': 'rij {row}, opdracht {order}: {reason}',
  'cli.status.more': '… en nog {count, number}',
  'cli.status.reading': '{sheetId}: {done, number}/{total, number} opdrachten opgevraagd',
  'cli.status.interrupted':
    'Onderbroken: de lijsten die nog niet opgevraagd waren, houden hun vorige status.csv.',
  'cli.status.then': '{before}; {after}',
  // worker, dashboard, monitoring, start
  'cli.worker.ready':
    'De worker is gestart: {concurrency, plural, one {# rij} other {# rijen}} tegelijk per verbinding, opdrachten naar {served}; hier worden alleen de lijsten verwerkt waarvan de opdrachten daarheen gaan. Druk op Ctrl+C om te stoppen.',
  'cli.worker.served': '{url} (verbinding “{name}”, {id})',
  'cli.worker.stopping':
    '{signal}: de rijen die al bezig zijn, worden nog afgewerkt (druk nogmaals op Ctrl+C om meteen te stoppen)…',
  'cli.worker.stop-now':
    'De worker stopt nu; de rijen die bezig waren, gaan bij de volgende start verder vanaf hun laatst bewaarde stap.',
  'cli.dashboard.shows':
    'Het dashboard toont de imports op Redis {url} (prefix {prefix}); zelf voert het geen imports uit.',
  'cli.dashboard.no-api':
    'Er is geen API_BASE_URL ingesteld: /healthz vermeldt de API dus niet ("api": null).',
  'cli.metrics': 'Metrics: {url}/metrics  (systeemstatus: {url}/healthz, {url}/readyz)',
  'cli.forgot.waiting':
    '{forgot} Tot dan wacht de importer: de lijsten blijven in de inbox en er wordt geen rij verwerkt.',
  'cli.stop.lifted':
    'Een eerdere stop ({reason}) is opgeheven: de API aanvaardt het token nu weer.',

  // ledger rebuild
  'cli.ledger.rebuilt':
    'Verbinding “{name}”: het register van dubbels is opnieuw opgebouwd uit {reports, plural, one {# rapport} other {# rapporten}} en {unreported, plural, one {# onderbroken lijst} other {# onderbroken lijsten}}. Ingeschreven: {created, plural, one {# opdracht} other {# opdrachten}} en {unknown, plural, one {# verstuurde opdracht waarvan niet bekend is of ze aangemaakt werd} other {# verstuurde opdrachten waarvan niet bekend is of ze aangemaakt werden}}; al aanwezig: {kept, number}.',
  'cli.ledger.rekeyed':
    '{count, plural, one {# opdracht van een rij} other {# opdrachten van rijen}} zonder referentie opnieuw herkend aan de hand van de lijst op schijf.',
  'cli.ledger.keyless':
    '{count, plural, one {# opdracht van een rij zonder referentie in een rapport kon} other {# opdrachten van rijen zonder referentie in een rapport konden}} niet ingeschreven worden (de sleutel is nergens bewaard en er is geen lijst om hem uit af te leiden): die rijen worden niet herkend als al geïmporteerd; als u ze opnieuw importeert, kunnen ze een tweede keer aangemaakt worden.',
  'cli.ledger.skipped': 'Overgeslagen: {what}',
  'cli.ledger.done':
    'U kunt weer importeren: rijen die al eerder geïmporteerd werden, worden als dubbel gemeld en niet opnieuw aangemaakt.',
  'cli.error.redis.forgot':
    'Redis kent geen enkele import van deze gegevensmap (hij is zonder zijn gegevens opnieuw opgestart, of het is een andere Redis): het register van dubbels van verbinding “{connection}” is weg, dus worden de imports van die verbinding geweigerd. Voer `order-importer ledger rebuild` uit om het register opnieuw op te bouwen uit de rapporten.',
  'cli.error.ledger.unknown-action':
    'order-importer ledger {action} bestaat niet: de enige mogelijkheid is `order-importer ledger rebuild`.',
  // The settings' remaining errors, connections, the token.
  'cli.error.config.invalid.schedules': '“schedules” in {file} klopt niet: {problem}.',
  'cli.error.config.invalid.cron':
    '“schedules” in {file}: het cron-patroon “{cron}” van “{name}” is niet bruikbaar: {problem}. Een patroon heeft 5 velden (minuut uur dag maand weekdag), of 6 met de seconden vooraan, bijvoorbeeld `0 2 * * *`.',
  'cli.error.config.invalid.schedule-connection':
    '“schedules” in {file}: “{name}” moet zijn verbinding vermelden in “connection” (een van {names}).',
  'cli.error.config.invalid.schedule-connection-unknown':
    '“schedules” in {file}: “{name}” vermeldt de verbinding “{connection}”, {count, plural, =0 {maar er zijn geen “connections” ingesteld} other {maar die bestaat niet: kies een van {names}}}.',
  'cli.error.config.invalid.schedule-scans-inbox':
    '“schedules” in {file}: “{name}” doorzoekt {dir} voor verbinding “{connection}”, maar daar ligt ook de inbox van “{other}” ({inbox}): die lijsten zouden met het token van “{connection}” verstuurd worden. Geef de planning een eigen map, of de inbox van haar eigen verbinding.',
  'cli.error.config.invalid.mapping':
    '“mapping” in {file} moet het pad van een mappingbestand zijn, ten opzichte van het configuratiebestand (opgegeven: {got}).',
  'cli.error.config.invalid.half-email':
    '{set1}{set2, select, none {} other { en {set2}}} {set2, select, none {is} other {zijn}} ingesteld, maar {missing1}{missing2, select, none {} other { en {missing2}}} niet: voor e-mailmeldingen moeten alle drie ingesteld zijn (NOTIFY_EMAIL_TO, NOTIFY_EMAIL_FROM en SMTP_URL).',
  'cli.error.config.invalid.half-webhook':
    'NOTIFY_WEBHOOK_SECRET is ingesteld, maar NOTIFY_WEBHOOK_URL niet: stel de URL in waarnaar de gebeurtenissen gestuurd worden, of verwijder het geheim.',
  'cli.error.config.invalid.inbox-overlap':
    'INBOX_DIR ({inbox}) en de map {what} van de importer zelf ({dir}) liggen in elkaar: de importer zou zijn eigen bestanden als lijsten opnemen. Geef de inbox een eigen map, naast de mappen work, archive, failed en reports van DATA_DIR.',
  'cli.error.config.invalid.connections-and-single':
    '{single} is ingesteld, maar {file} bevat ook “connections”, waarin elke verbinding haar eigen API en tokenbestand heeft: verwijder {single} (en de instellingen die erbij horen), of laat “connections” weg.',
  'cli.error.config.invalid.connections.not-list':
    '“connections” in {file} moet een reeks van verbindingen zijn.',
  'cli.error.config.invalid.connections.empty':
    '“connections” in {file} mag niet leeg zijn (laat het weg om API_BASE_URL en API_TOKEN te gebruiken).',
  'cli.error.config.invalid.connections.token':
    '“connections” in {file}, verbinding nr. {entry}{name, select, none {} other { (“{name}”)}}: “token” mag hier niet staan, want een configuratiebestand belandt in back-ups en tickets. Zet het token in een apart bestand en geef dat op met “tokenFile”.',
  'cli.error.config.invalid.connections.entry':
    '“connections” in {file}, verbinding nr. {entry}{name, select, none {} other { (“{name}”)}}: {problem}.',
  'cli.error.config.invalid.connections.same-name':
    '“connections” in {file}: de naam “{name}” is aan twee verbindingen gegeven; geef elke verbinding een eigen naam.',
  'cli.error.config.invalid.connections.same-inbox':
    '“connections” in {file}: “{a}” en “{b}” hebben dezelfde inbox “{inbox}”: elk kantoor heeft een eigen inbox nodig.',
  'cli.error.config.invalid.connections.nested-inbox':
    '“connections” in {file}: de inbox van “{a}” ({aInbox}) en die van “{b}” ({bInbox}) liggen in elkaar, zodat een lijst daar bij allebei zou horen. Geef elk kantoor een eigen inbox die niet in een andere ligt.',
  'cli.error.connection.not-chosen':
    'Het configuratiebestand heeft meerdere verbindingen ({names}): kies er een met --connection NAAM.',
  'cli.error.connection.none-configured':
    '--connection {name}: {file, select, none {er is geen configuratiebestand met “connections” opgegeven (geef er een op met --config BESTAND)} other {{file} bevat geen “connections”}}.',
  'cli.error.connection.unknown':
    '--connection {name}: het configuratiebestand heeft geen verbinding met die naam; kies een van {names}.',
  'cli.error.api.token-unreadable':
    '{connection, select, none {API_TOKEN_FILE {file}} other {Het tokenbestand van verbinding “{connection}” ({file})}} kan niet gelezen worden: {reason}.',
  'cli.error.api.token-empty':
    '{connection, select, none {API_TOKEN_FILE {file}} other {Het tokenbestand van verbinding “{connection}” ({file})}} is leeg: zet het token erin.',
  // A mapping that cannot be used (src/orders/mapping*.ts, columns.ts).
  'cli.error.mapping.invalid.not-file': 'Mappingbestand {file} is geen bestand.',
  'cli.error.mapping.invalid.unreadable': 'Mappingbestand {file} kan niet gelezen worden: {reason}',
  'cli.error.mapping.invalid.link':
    'Mappingbestand {file} wordt niet gelezen: het is een symbolische koppeling, en een mapping naast een lijst wordt nooit via een koppeling gelezen. Zet het bestand zelf op die plaats.',
  'cli.error.mapping.invalid.hard-link':
    'Mappingbestand {file} wordt niet gelezen: het is een vaste koppeling, waarvan de andere naam buiten de map kan liggen. Kopieer het bestand naar de map in plaats van ernaar te koppelen.',
  'cli.error.mapping.invalid.not-regular':
    'Mappingbestand {file} kan niet gelezen worden: het is geen gewoon bestand.',
  'cli.error.mapping.invalid.too-big':
    'Mappingbestand {file} is groter dan {kb} KB, en zo groot is een mapping nooit: is het wel het juiste bestand?',
  'cli.error.mapping.invalid.json':
    'Mappingbestand {file} is geen geldige JSON: {mistake}. Een mapping ziet er zo uit: \'{ "columns": { "Straat": "address1" } }\'.',
  'cli.error.mapping.invalid.nesting':
    'In mappingbestand {file} zitten objecten of reeksen meer dan {levels} niveaus diep in elkaar, terwijl een mapping er hoogstens drie nodig heeft, zoals \'{ "columns": { "Straat": "address1" } }\': is het wel het juiste bestand?',
  'cli.error.mapping.invalid.not-object':
    'Mappingbestand {file} moet een JSON-object zijn, zoals \'{ "columns": { "Straat": "address1" } }\' (of de vlakke vorm \'{ "Straat": "address1" }\').',
  'cli.error.mapping.invalid.stray':
    'Mappingbestand {file}: {key} hoort niet in een mapping (die bestaat uit “columns”, “values” en “worksheet”); een kolomnaam hoort onder “columns”, zoals \'{ "columns": {\' {key}: "address1" \'} }\'.',
  'cli.error.mapping.invalid.columns':
    'Mappingbestand {file}: “columns” moet een object zijn met uw kolomnamen en de velden die ze bevatten, zoals \'{ "Straat": "address1" }\'.',
  'cli.error.mapping.invalid.worksheet':
    'Mappingbestand {file}: “worksheet” moet de naam van een werkblad zijn, als tekst.',
  'cli.error.mapping.invalid.values':
    'Mappingbestand {file}: “values” moet een object zijn met velden en uw woorden voor hun waarden, zoals \'{ "contact_language": { "Nederlands": "nl" } }\'.',
  'cli.error.mapping.invalid.values-twice':
    'Mappingbestand {file}: “values” bevat {field} twee keer; laat er maar één staan.',
  'cli.error.mapping.invalid.values-field':
    'Mappingbestand {file}: “values” vermeldt {name}, {known, select, yes {een veld dat geen synoniemen voor waarden aanvaardt} other {maar dat is geen veld van een opdracht}}; synoniemen zijn mogelijk voor {fields}.',
  'cli.error.mapping.invalid.words':
    'Mappingbestand {file}: “values”.{name} moet een object zijn met uw woorden en de waarden waarvoor ze staan, zoals \'{ "Nederlands": "nl" }\'.',
  'cli.error.mapping.invalid.empty-word':
    'Mappingbestand {file}: “values”.{name} bevat een leeg woord; geef het woord zoals het in de lijst staat.',
  'cli.error.mapping.invalid.not-allowed':
    'Mappingbestand {file}: “values”.{name} zet {word} om naar {target}, wat {field} niet toelaat: {problem}.',
  'cli.error.mapping.invalid.word-twice':
    'Mappingbestand {file}: “values”.{name} bevat {word} twee keer (hoofdletters en spaties tellen niet mee), voor twee waarden; laat er maar één staan.',
  'cli.error.mapping.invalid.flat-not-object':
    'Mappingbestand {file} moet een JSON-object zijn, zoals \'{ "Straat": "address1" }\'.',
  'cli.error.mapping.invalid.not-field':
    'Mappingbestand {file}: {column} wijst naar {target}, dat geen veld van een opdracht is; {like, select, none {gebruik een van} other {bedoelt u {like}? De velden zijn}} {fields}.',
  'cli.error.mapping.invalid.mapped-twice':
    'Mappingbestand {file}: de kolom {column} staat er twee keer in; laat er maar één staan.',
  'cli.error.mapping.invalid.both-give':
    'de kolommen “{first}” en “{second}” staan allebei voor {field}: laat er maar één staan.',
  // status's targets, and a report folder it cannot use.
  'cli.error.status.target-unknown':
    '{target} is geen rapportmap (een map met summary.json en report.csv) en ook geen id van een lijst: geef een van beide op.',
  'cli.error.status.not-a-report-folder':
    '{target} is geen rapportmap: er staan geen summary.json en report.csv in.',
  'cli.error.status.target-missing': '{target} bestaat niet.',
  'cli.error.status.no-report':
    'Geen rapport van lijst {sheetId} in {dir} (REPORTS_DIR): geef het id van een lijst zoals summary.json het vermeldt, of een rapportmap.',
  'cli.error.report-folder.unusable.too-big':
    '{file} is {mib} MiB, groter dan de {limit} MiB die van een rapportbestand gelezen wordt: niet gelezen.',
  'cli.error.report-folder.unusable.summary-json':
    '{dir}: summary.json is geen geldige JSON ({reason}).',
  'cli.error.report-folder.unusable.summary-foreign':
    '{dir}: summary.json is niet door de importer geschreven.',
  'cli.error.report-folder.unusable.csv': '{file} kan niet gelezen worden ({reason}).',
  'cli.error.report-folder.unusable.no-report': '{dir} bevat geen report.csv.',
  'cli.ledger.skipped.link': '{path} is een koppeling: niet gevolgd.',
  'cli.ledger.skipped.creates-link': '{file} is geen gewoon bestand (een koppeling?).',
  'cli.ledger.skipped.creates-lines':
    '{file}: {count, plural, one {# regel} other {# regels}} niet begrepen.',
  'cli.ledger.unkeyed':
    '{count, plural, one {# rij} other {# rijen}} van lijst {sheetId} ({dir}) {count, plural, one {kon} other {konden}} niet herkend worden: {why}; als u de lijst opnieuw importeert, {count, plural, one {kan die rij} other {kunnen die rijen}} een tweede keer aangemaakt worden.',
  'cli.ledger.unkeyed.no-reason': 'reden onbekend',

  // `--help`
  'cli.help.program.description':
    'Zet lijsten met opdrachten om in keuringsopdrachten via de API van de Order and File Service.',
  'cli.help.heading.usage': 'Gebruik:',
  'cli.help.heading.arguments': 'Argumenten:',
  'cli.help.heading.options': 'Opties:',
  'cli.help.heading.commands': 'Commando’s:',
  'cli.help.usage.options': '[opties]',
  'cli.help.usage.command': '[commando]',
  'cli.help.help': 'toont de hulp bij een commando',
  'cli.help.version': 'toont de versie en stopt',
  'cli.help.after-error': '(zie --help voor het gebruik)',
  'cli.help.sheets':
    'lijsten: Excel-werkmappen (.xlsx, .xlsm), CSV (.csv), JSON (.json) of NDJSON (.ndjson, .jsonl)',
  'cli.help.where-to':
    'Waar de opdrachten naartoe gaan: API_BASE_URL met API_TOKEN of API_TOKEN_FILE, in de omgeving\nof in het --config-bestand; zonder die instellingen naar de ingebouwde testomgeving. Meerdere\nkantoren: “connections” in het --config-bestand. Redis: REDIS_URL (anders 127.0.0.1:6379, anders\neen eigen redis-server). Alle instellingen: docs/reference.md.',
  'cli.help.option.config': 'JSON-configuratiebestand met instellingen',
  'cli.help.option.mapping':
    'JSON-mapping van uw eigen kolomnamen (en woorden voor waarden) naar die van de API, bv. \'{ "columns": { "Straat": "address1" } }\'; zonder deze optie de mapping.json naast de lijst, anders de “mapping” uit het configuratiebestand',
  'cli.help.option.connection':
    'de verbinding uit het configuratiebestand die gebruikt wordt (haar API, token en mapping); nodig als er meerdere zijn',
  'cli.help.option.json':
    'toont één JSON-samenvatting per lijst op stdout (de gewone meldingen gaan naar stderr)',
  'cli.help.import.description':
    'Lijsten importeren: per geldige rij wordt een opdracht aangemaakt en worden haar bijlagen toegevoegd; daarna wordt per lijst een rapport geschreven. Exitcode 0: alles aangemaakt of dubbel; 2: sommige rijen ongeldig, mislukt of na te kijken; 1: fatale fout.',
  'cli.help.import.no-workers':
    'zet de lijsten alleen in de wachtrij en wacht: `order-importer worker`-processen doen het werk',
  'cli.help.import.allow-duplicates':
    'maakt ook opdrachten aan voor rijen die al eerder geïmporteerd zijn',
  'cli.help.watch.description':
    'De inbox opvolgen: elke lijst die in INBOX_DIR (of in de map van een planning) gezet wordt, opnemen en importeren, en het dashboard aanbieden, tot SIGINT/SIGTERM.',
  'cli.help.watch.no-dashboard': 'biedt het dashboard niet aan',
  'cli.help.worker.description':
    'Alleen workers draaien, om op te schalen: zoveel processen als u wilt, op om het even welke machines, die samen één Redis delen.',
  'cli.help.ledger.description':
    'ledger rebuild: als Redis zijn gegevens kwijt is (na een herstart zonder AOF), het register van dubbels van elke verbinding opnieuw opbouwen uit de rapporten (REPORTS_DIR) en het logboek van aangemaakte opdrachten (DATA_DIR/creates), zodat eerder geïmporteerde rijen weer als dubbel herkend worden; tot dan worden imports geweigerd. Exitcode 0: opnieuw opgebouwd; 1: fatale fout.',
  'cli.help.ledger.argument': '“rebuild”: het register opnieuw opbouwen',
  'cli.help.ledger.connection':
    'bouwt alleen het register van deze verbinding uit het configuratiebestand opnieuw op (standaard: van elke verbinding)',
  'cli.help.dashboard.description':
    'Alleen het dashboard aanbieden (overzicht van de imports, wachtrijen, /healthz, /readyz, /metrics) voor de watch- en worker-processen die dezelfde Redis gebruiken; het importeert zelf niets.',
  'cli.help.status.description':
    'De status van de opdrachten van geïmporteerde lijsten opvragen (elke lijst met het token van haar eigen verbinding) en in de status.csv van elk rapport zetten. Exitcode 0: alles opgevraagd; 2: een opdracht of lijst kon niet opgevraagd worden; 1: fatale fout.',
  'cli.help.status.argument':
    'rapportmappen of id’s van lijsten; zonder argument: elke lijst met een rapport van de laatste STATUS_DAYS dagen (een lijst waarvan alle opdrachten een definitieve status hebben, zie STATUS_FINAL, wordt niet opnieuw opgevraagd)',
  'cli.help.status.json':
    "toont ['{ sheetId, orders, byStatus, changed }'] op stdout (de gewone meldingen gaan naar stderr)",
  'cli.help.validate.description':
    'Proefdraai: lijsten lezen, de mapping toepassen, de rijen controleren en de bijlagen nakijken, zonder één API-verzoek. Exitcode 0: alles geldig; 2: sommige rijen ongeldig; 1: fatale fout.',
  'cli.help.sandbox.description':
    'De testomgeving van de Order and File Service op de voorgrond draaien en haar basis-URL en tokens tonen.',
  'cli.help.notes':
    '{help} ({notes, select, env {variabele {env}} default {standaard {shown}} other {variabele {env}; standaard {shown}}})',
  'cli.help.setting.apiBaseUrl': 'basis-URL van de Order and File Service',
  'cli.help.setting.apiToken': 'bearer-token',
  'cli.help.setting.apiTokenFile': 'een bestand met het bearer-token',
  'cli.help.setting.redisUrl':
    'de Redis voor de wachtrijen: redis://host:poort, rediss:// over TLS, een Sentinel-set als redis+sentinel://host:poort[,host:poort…]/<naam van de master>, een Cluster als redis+cluster://host:poort[,host:poort…]; een ACL-gebruiker als gebruiker:wachtwoord@ voor de host',
  'cli.help.setting.dataDir':
    'hoofdmap van de gegevensmappen (inbox/, work/, archive/, reports/, failed/, sheets/; sandbox/ en redis/ als die ingebouwd zijn)',
  'cli.help.setting.inboxDir': 'opgevolgde map (inbox)',
  'cli.help.setting.inboxPolling':
    'kijkt de inbox geregeld na in plaats van te wachten op bestandsmeldingen, voor netwerkschijven',
  'cli.help.setting.inboxStableMs':
    'hoelang een lijst ongewijzigd moet blijven voor ze opgenomen wordt, in ms',
  'cli.help.setting.reportsDir': 'map van de rapporten',
  'cli.help.setting.productsFile': 'productcatalogus, in JSON',
  'cli.help.setting.concurrency': 'aantal rijen tegelijk in verwerking, per proces',
  'cli.help.setting.apiRateLimit':
    'maximaal aantal API-verzoeken per minuut, over alle workers samen',
  'cli.help.setting.apiTimeoutMs': 'maximale wachttijd per verzoek, in ms',
  'cli.help.setting.apiWaitS':
    'hoelang er bij de start gewacht wordt op een API die onbereikbaar of overbelast is',
  'cli.help.setting.redisWaitS':
    'hoelang `import` op Redis wacht als die wegvalt, voor de import stopt',
  'cli.help.setting.ledgerDays': 'hoelang het register van dubbels een geïmporteerde rij onthoudt',
  'cli.help.setting.statusDays':
    '`status` (ook volgens planning) vraagt de opdrachten op van de lijsten met een rapport van de laatste zoveel dagen',
  'cli.help.setting.statusSyncCron':
    'wanneer `watch` de opdrachten van de laatste STATUS_DAYS dagen opvraagt (cron: 5 velden, of 6 met de seconden vooraan; “off”: nooit)',
  'cli.help.setting.statusFinal':
    'definitieve opdrachtstatussen, gescheiden door komma’s: een lijst waarvan alle opdrachten zo’n status hebben, wordt niet meer opgevraagd (volgens planning, of door `status` zonder argumenten)',
  'cli.help.setting.maxAttachmentMb': 'grootste bijlage die aanvaard wordt, per bestand',
  'cli.help.setting.dashboardHost':
    'adres waarop het dashboard luistert (elk ander adres dan loopback vereist DASHBOARD_USER en DASHBOARD_PASSWORD)',
  'cli.help.setting.dashboardPort': 'poort waarop het dashboard luistert',
  'cli.help.setting.dashboardHosts':
    'door komma’s gescheiden hostnamen waarop het dashboard antwoordt naast localhost, 127.0.0.1, ::1 en --host; elke andere wordt geweigerd',
  'cli.help.setting.metricsPort':
    'poort waarop `worker` /metrics, /healthz en /readyz aanbiedt (niet ingesteld: geen)',
  'cli.help.setting.metricsHost': 'adres waarop de server van METRICS_PORT luistert',
  'cli.help.setting.dashboardUser': 'de gebruikersnaam van het dashboard',
  'cli.help.setting.dashboardPassword': 'het wachtwoord van het dashboard',
  'cli.help.setting.language':
    'taal van alles wat een mens leest: nl, fr of en (de logregels blijven Engels)',
  'cli.help.setting.logLevel': 'logniveau',
  'cli.help.setting.queuePrefix':
    "voorvoegsel van elke Redis-sleutel; een '{hash tag}' houdt ze samen in één Cluster-slot",
  'cli.help.setting.rowAttempts': 'aantal pogingen per rij, voor ze mislukt',
  'cli.help.setting.retryDelayMs':
    'wachttijd voor de eerste nieuwe poging van een rij, in ms (telkens verdubbeld, met wat willekeurige spreiding)',
  'cli.help.setting.embeddedSandboxPlanningS':
    'zonder API_BASE_URL: de ingebouwde testomgeving plant elke opdracht zoveel seconden na het aanmaken in (datums, keurders, een nieuwe status); 0: nooit',
  'cli.help.setting.jobLockMs':
    'hoelang een worker een taak vasthoudt voor ze als vastgelopen geldt en een andere worker ze overneemt',
  'cli.help.setting.notifyWebhookUrl':
    'waar de gebeurtenissen (sheet.done, sheet.unreadable, orders.changed) als JSON naartoe gestuurd worden (POST)',
  'cli.help.setting.notifyWebhookSecret':
    'ondertekent de inhoud van elke webhook: X-Order-Importer-Signature: sha256=<HMAC-SHA256 van de inhoud>',
  'cli.help.setting.notifyEmailTo':
    'door komma’s gescheiden adressen die per gebeurtenis een e-mail krijgen (met NOTIFY_EMAIL_FROM en SMTP_URL)',
  'cli.help.setting.notifyEmailFrom': 'de afzender van die e-mails',
  'cli.help.setting.smtpUrl':
    'de SMTP-server van die e-mails: smtp://user:password@host:587 of smtps://… (de inloggegevens worden nooit getoond)',
  'cli.help.setting.notifyRetryHours':
    'hoelang een melding die niet bezorgd kan worden, opnieuw geprobeerd wordt',
  'cli.help.setting.sandboxHost': 'adres waarop de testomgeving luistert',
  'cli.help.setting.sandboxPort':
    'poort waarop de testomgeving luistert, 0 voor een willekeurige vrije poort',
  'cli.help.setting.sandboxDataDir': 'bewaart opdrachten en bestanden in deze map',
  'cli.help.setting.sandboxTokens':
    'aanvaard bearer-token met zijn organisatie; mag herhaald worden (in de variabele gescheiden door komma’s)',
  'cli.help.setting.sandboxRateLimit': 'verzoeken per tijdvenster per token, daarna 429',
  'cli.help.setting.sandboxRateWindow': 'tijdvenster van de verzoeklimiet',
  'cli.help.setting.sandboxPostMaxSize':
    'post_max_size van PHP: een grotere inhoud krijgt een 413 in JSON',
  'cli.help.setting.sandboxProxyBodyLimit':
    'de limiet van een proxy vóór de API: een grotere inhoud krijgt de HTML-pagina 413 van nginx (nginx heeft zelf 1M)',
  'cli.help.setting.sandboxUploadMaxFilesize':
    'upload_max_filesize van PHP: een groter bestand krijgt 422 “failed to upload” (PHP heeft zelf 2M)',
  'cli.help.setting.sandboxMaxFileUploads':
    'max_file_uploads van PHP: bestanden daarboven worden zonder melding weggelaten (PHP heeft zelf 20)',
  'cli.help.setting.sandboxPhpDefaults':
    'de standaardlimieten van PHP waar niets opgegeven is: upload_max_filesize 2M, max_file_uploads 20, post_max_size 8M',
  'cli.help.setting.sandboxRedirectTrailingSlash':
    'beantwoordt /api/orders/ met de 301 van Apache naar /api/orders',
  'cli.help.setting.sandboxQuirks':
    'geeft opgevraagde opdrachten terug zonder de gedocumenteerde eigenaardigheden',
  'cli.help.setting.sandboxPlanning':
    'plant elke opdracht zoveel seconden na het aanmaken in: een datum en een keurder per keuring, en een nieuwe status (scheduled, enkele cancelled, later done); 0: nooit',
  'cli.help.setting.sandboxSeed':
    'startwaarde (seed) van de gesimuleerde fouten en van de planning',
  'cli.help.setting.sandboxLatency': 'vertraging bij elk API-verzoek',
  'cli.help.setting.sandboxJitter': 'willekeurige extra vertraging, tot zoveel',
  'cli.help.setting.sandboxP503': 'kans op een 503 met Retry-After, voor er iets gebeurt',
  'cli.help.setting.sandboxRetryAfter': 'Retry-After van de gesimuleerde 503’s',
  'cli.help.setting.sandboxPResetBefore': 'kans op een verbroken verbinding voor er iets gebeurt',
  'cli.help.setting.sandboxP500After': 'kans op een 500 nadat een opdracht of bestand bewaard is',
  'cli.help.setting.sandboxPResetAfter':
    'kans op een verbroken verbinding nadat een opdracht of bestand bewaard is',
  'cli.help.default.apiBaseUrl': 'niet ingesteld: de ingebouwde testomgeving',
  'cli.help.default.apiToken': 'het demotoken van de testomgeving, als die gebruikt wordt',
  'cli.help.default.redisUrl': 'redis://127.0.0.1:6379, anders een eigen redis-server',
  'cli.help.default.inboxPolling': 'uit: wachten op bestandsmeldingen',
  'cli.help.default.apiRateLimit':
    'afgeleid uit de X-RateLimit-*-headers van de API; een 429 wordt altijd gerespecteerd',
  'cli.help.default.dashboardHosts': 'alleen die',
  'cli.help.default.language': 'de taal uit LANGUAGE, LC_ALL, LC_MESSAGES of LANG, anders en',
  'cli.help.default.notifyWebhookUrl': 'geen',
  'cli.help.default.notifyWebhookSecret': 'niet ondertekend',
  'cli.help.default.notifyEmailTo': 'geen',
  'cli.help.default.sandboxDataDir': 'in het geheugen',
  'cli.help.default.sandboxTokens': 'het demotoken {token}',
  'cli.help.default.sandboxRateLimit': 'geen',
  'cli.help.default.sandboxProxyBodyLimit': 'uit',
  'cli.help.default.sandboxUploadMaxFilesize': 'uit',
  'cli.help.default.sandboxMaxFileUploads': 'uit',
  'cli.help.default.sandboxPlanning': 'nooit',
  'cli.commander.unknownOption':
    'fout: onbekende optie “{flag}”{suggestion, select, none {} other {\n(Bedoelde u {suggestion}?)}}',
  'cli.commander.unknownCommand':
    'fout: onbekend commando “{command}”{suggestion, select, none {} other {\n(Bedoelde u {suggestion}?)}}',
  'cli.commander.missingArgument': 'fout: het argument “{argument}” ontbreekt',
  'cli.commander.optionMissingArgument': 'fout: bij de optie “{option}” ontbreekt een waarde',
  'cli.commander.excessArguments':
    'fout: te veel argumenten: {expected, plural, one {# argument} other {# argumenten}} verwacht, {got, plural, other {# gekregen}}.',
  'cli.status.nobody-told':
    'In {count, plural, one {# lijst} other {# lijsten}} zijn opdrachten gewijzigd, maar niemand werd verwittigd: er is geen melding ingesteld voor hun kantoor (NOTIFY_WEBHOOK_URL, of NOTIFY_EMAIL_TO met NOTIFY_EMAIL_FROM en SMTP_URL, in de omgeving of het configuratiebestand; of een “notify” in de verbinding van het kantoor). De wijzigingen staan in de status.csv van elk rapport.',
  'cli.status.told':
    'De melding orders.changed is bezorgd voor {count, plural, one {# lijst} other {# lijsten}}.',
  'cli.error.config.invalid.office-email':
    'de verbinding “{name}” heeft eigen ontvangers in “notify.email”, en haar e-mails hebben NOTIFY_EMAIL_FROM en SMTP_URL nodig (de afzender en de SMTP-server waarlangs de e-mails van elk kantoor gaan): stel beide in, of laat “email” weg uit haar “notify”.',
  'cli.help.setting.inspectionMinutes':
    'hoe lang een keuring duurt in de agenda’s (.ics, de abonnementen van de kantoren), in minuten',
  'cli.error.dashboard.users-invalid.unreadable':
    'DASHBOARD_USERS_FILE {file} kan niet gelezen worden ({reason}).',
  'cli.error.dashboard.users-invalid.too-large':
    'DASHBOARD_USERS_FILE {file} is groter dan 1 MB: dat is geen gebruikersbestand.',
  'cli.error.dashboard.users-invalid.json':
    'DASHBOARD_USERS_FILE {file} is geen geldige JSON ({mistake}).',
  'cli.error.dashboard.users-invalid.not-list':
    'DASHBOARD_USERS_FILE {file} moet een JSON-lijst van gebruikers bevatten, elk met “user”, “password” en “offices” (een lijst van kantoren, of "*").',
  'cli.error.dashboard.users-invalid.entry':
    'DASHBOARD_USERS_FILE {file}, item {entry}: moet een object zijn met “user”, “password” en “offices”, en niets anders.',
  'cli.error.dashboard.users-invalid.user':
    'DASHBOARD_USERS_FILE {file}, item {entry}: “user” moet een naam van 1 tot 100 tekens zijn, zonder ":".',
  'cli.error.dashboard.users-invalid.offices':
    'DASHBOARD_USERS_FILE {file}, item {entry} ({user}): “offices” moet een lijst van kantoornamen zijn, of "*".',
  'cli.error.dashboard.users-invalid.password':
    'DASHBOARD_USERS_FILE {file}, item {entry} ({user}): “password” is geen hash zoals order-importer dashboard-user die schrijft: {problem}.',
  'cli.error.dashboard.users-invalid.duplicate':
    'DASHBOARD_USERS_FILE {file}, item {entry} ({user}): deze gebruiker staat al in item {earlier}.',
  'cli.error.dashboard-user.no-file':
    'order-importer dashboard-user schrijft in DASHBOARD_USERS_FILE: stel die in (in de omgeving of het configuratiebestand) op het bestand waaruit het dashboard zijn gebruikers leest.',
  'cli.error.dashboard-user.no-offices':
    'gebruiker {user} is nieuw: geef met --offices op welke kantoren die gebruiker ziet (namen van verbindingen, gescheiden door komma’s, of "*" voor alle kantoren).',
  'cli.error.dashboard-user.bad-offices':
    '--offices {offices}: geef kantoornamen op (de namen van de verbindingen), gescheiden door komma’s, of "*" voor alle kantoren.',
  'cli.error.dashboard-user.bad-name': 'gebruikersnaam {user}: 1 tot 100 tekens, zonder ":".',
  'cli.error.dashboard-user.no-password': 'er werd geen wachtwoord gegeven via de standaardinvoer.',
  'cli.error.dashboard-user.short-password': 'het wachtwoord is te kort: minstens {min} tekens.',
  'cli.error.dashboard-user.mismatch':
    'de twee wachtwoorden komen niet overeen: er werd niets geschreven.',
  'cli.help.dashboard-user.description':
    'Een gebruiker van het dashboard toevoegen aan DASHBOARD_USERS_FILE, of het wachtwoord of de kantoren van een gebruiker wijzigen; vraagt het wachtwoord (leest het van de standaardinvoer als die geen terminal is).',
  'cli.help.dashboard-user.argument': 'de gebruikersnaam',
  'cli.help.dashboard-user.offices':
    'de kantoren die de gebruiker ziet: namen van verbindingen gescheiden door komma’s, of "*" voor alle kantoren (en /queues, /metrics); zonder deze optie blijven ze ongewijzigd',
  'cli.help.setting.dashboardUsersFile':
    'de gebruikers van het dashboard en de kantoren die elk ziet (JSON, geschreven door order-importer dashboard-user); vervangt DASHBOARD_USER/DASHBOARD_PASSWORD',
  'cli.dashboard-user.password': 'Wachtwoord voor {user}:',
  'cli.dashboard-user.again': 'Herhaal het wachtwoord:',
  'cli.dashboard-user.written':
    'Dashboardgebruiker {user} {done, select, added {toegevoegd aan} other {gewijzigd in}} {file}: ziet {all, select, yes {alle kantoren, /queues en /metrics} other {{offices}}}.',
  // A dashboard open to other machines without a password, refused before anything starts.
  'cli.error.dashboard.exposed':
    'het dashboard zou luisteren op {host}, bereikbaar vanaf andere machines, zonder wachtwoord: stel DASHBOARD_USER en DASHBOARD_PASSWORD in, of DASHBOARD_USERS_FILE (of zet DASHBOARD_HOST=127.0.0.1).',
  'cli.error.dashboard.exposed.proxied':
    'het dashboard zou bereikbaar zijn als {hosts} (DASHBOARD_HOSTS: via een proxy, vanaf andere machines) zonder wachtwoord: stel DASHBOARD_USER en DASHBOARD_PASSWORD in, of DASHBOARD_USERS_FILE.',

  // purge and retention
  'cli.help.setting.retentionDays':
    '`watch` verwijdert eenmaal per dag elke lijst waarvan het rapport meer dan dit aantal dagen oud is (rapport, archief, kopieën en gegevens; 0 bewaart ze voor altijd)',
  'cli.help.purge.description':
    'De persoonsgegevens verwijderen van de lijsten die vóór een datum gerapporteerd zijn: hun rapportmappen, gearchiveerde en werkkopieën, en hun gegevens in Redis (alleen van de connecties van deze configuratie; een lijst die nog geïmporteerd wordt, blijft altijd staan). Het register van dubbels blijft: hun rijen zijn bij een nieuwe import nog altijd dubbels. Afsluitcode: 0 als het gedaan is, 1 bij een fatale fout.',
  'cli.help.purge.before':
    'de lijsten verwijderen die vóór deze datum gerapporteerd zijn (JJJJ-MM-DD, of een ISO-tijd)',
  'cli.help.purge.connection':
    'alleen de lijsten van deze connectie uit het configuratiebestand (standaard: alle)',
  'cli.help.purge.dry-run': 'zeggen wat verwijderd zou worden, en niets verwijderen',
  'cli.purge.sheet':
    'Lijst {name} ({sheetId}, kantoor {office}, gerapporteerd op {finished}) {dry, select, yes {zou verwijderd worden} other {verwijderd}}: {folders, plural, one {# map} other {# mappen}} en {records, plural, one {# gegeven} other {# gegevens}} in Redis.',
  'cli.purge.refused':
    'Blijft staan: {path} (niet de eigen map van deze lijst in REPORTS_DIR of DATA_DIR, of een link).',
  'cli.purge.done':
    '{count, plural, one {# lijst} other {# lijsten}} gerapporteerd vóór {before} {dry, select, yes {zou verwijderd worden} other {verwijderd}}; het register van dubbels kent hun rijen nog als geïmporteerd.',
  'cli.retention.pass':
    'Bewaartermijn (RETENTION_DAYS={days}): lijsten gerapporteerd vóór {before} worden verwijderd.',
  'cli.error.purge.bad-date':
    'order-importer purge --before {date}: geen datum (schrijf hem als 2025-01-31).',
  'cli.error.dashboard.port-unavailable.port':
    'Het dashboard kan niet luisteren op {host}:{port} ({code}): stel DASHBOARD_PORT of --port in.',
  'cli.error.dashboard.port-unavailable.no-dashboard':
    'Het dashboard kan niet luisteren op {host}:{port} ({code}): stel DASHBOARD_PORT in, of gebruik --no-dashboard.',
  'cli.error.metrics.port-unavailable':
    'METRICS_PORT: kan niet luisteren op {host}:{port} ({code}): kies een andere poort (of METRICS_HOST).',
  'cli.error.sandbox.port-unavailable':
    'Kan niet luisteren op {host}:{port} ({code}): kies een andere --port.',
  'cli.error.inbox.symbolic-link':
    'De inbox van verbinding “{name}” ({dir}) is een symbolische koppeling: de hot folder volgt geen koppelingen. Maak er een gewone map van, of laat INBOX_DIR naar de gedeelde map wijzen.',
  'cli.error.connections.same-api':
    'De verbindingen “{a}” en “{b}” hebben dezelfde API ({url}) en hetzelfde token: het is één verbinding, één organisatie. Geef ze samen één item (elke submap van de inbox kan een eigen mapping.json hebben), of geef elk kantoor een eigen token.',
  'cli.error.schedule.invalid.cron':
    'planning “{name}”: “{cron}” is geen cron-patroon ({problem}).',
  'cli.error.schedule.invalid.unknown':
    'geen planning “{name}” hier: de scan ervan hoort bij een ander proces',
  'cli.error.schedule.invalid.other-inbox':
    'Planning “{name}” van verbinding “{office}” scant {dir}, en die map leidt naar de inbox van “{other}” ({otherDir}): de lijsten van dat kantoor zouden verstuurd worden met het token van “{office}”. Geef de planning een eigen map.',
  'cli.error.status.schedule-invalid':
    'STATUS_SYNC_CRON “{cron}” is geen cron-patroon ({problem}).',
  'cli.error.installation.marker-unusable.vanished':
    '{path} is verdwenen terwijl het geschreven werd.',
  'cli.error.installation.marker-unusable.link':
    '{path} is een koppeling: het moet een eigen bestand zijn.',
  'cli.error.installation.marker-unusable.damaged':
    '{path} is beschadigd: het duidt deze gegevensmap aan en wordt dus nooit met de hand aangepast; zet het terug uit een back-up, of verwijder het als deze gegevensmap nog nooit met een Redis gebruikt is.',
  'cli.error.catalogue.invalid.entry':
    'Productcatalogus {source}: item {entry} {problem}; verwacht: een JSON-lijst van \'{ "id", "name", "category" }\'.',
  'cli.error.catalogue.invalid.empty':
    'Productcatalogus {source}: het bestand moet minstens één product bevatten; verwacht: een JSON-lijst van \'{ "id", "name", "category" }\'.',
  'cli.error.catalogue.invalid.not-list':
    'Productcatalogus {source}: het bestand is geen geldige lijst ({problem}); verwacht: een JSON-lijst van \'{ "id", "name", "category" }\'.',
  'cli.error.catalogue.invalid.repeated':
    'Productcatalogus {source}: item {entry} herhaalt het product-id “{id}”.',
  'cli.error.catalogue.invalid.unreadable':
    'Productcatalogus {file} kan niet gelezen worden: {reason}',
  'cli.error.catalogue.invalid.json': 'Productcatalogus {file} is geen geldige JSON: {mistake}',
  'cli.error.api.token-unfit':
    '{source, select, variable {API_TOKEN} file {API_TOKEN_FILE {file}} other {Het tokenbestand van verbinding “{connection}” ({file})}} bevat {character, select, line_break {een regeleinde} other {een teken dat een request-header niet kan dragen ({character})}} midden in het token, en zo kan geen enkel verzoek het versturen: zet het token alleen op één regel (een regeleinde aan het eind mag).',
  'cli.error.api.wait-stopped': 'Gestopt tijdens het wachten op de API op {url}.',
  'cli.error.sandbox.identity-unreadable':
    '{file} bevat geen id van een testomgeving: verwijder het (de testomgeving daar geldt dan als een nieuwe).',
  'cli.error.status.api-unusable.auth':
    'De API weigert het token ({reason}): controleer API_TOKEN / API_TOKEN_FILE, of het tokenbestand van de verbinding.',
  'cli.error.status.api-unusable.config':
    'De API staat niet waar de instellingen zeggen ({reason}): controleer API_BASE_URL, of de apiBaseUrl van de verbinding.',
  'cli.stop.reason.auth':
    'de API weigert het token ({detail}): controleer API_TOKEN / API_TOKEN_FILE. De import is gepauzeerd; er wordt niets meer verstuurd.',
  'cli.stop.reason.config':
    'de API staat niet waar de instellingen zeggen ({detail}): controleer API_BASE_URL. De import is gepauzeerd; er wordt niets meer verstuurd.',
  'cli.error.machine.access':
    '{folder}: dit proces mag daar niet schrijven ({code}). Geef de gebruiker waaronder het draait schrijfrechten op die map (chown of chmod), of zet DATA_DIR (of de eigen instelling van die map) op een map waar het wel mag schrijven.',
  'cli.error.machine.full':
    'de schijf van {folder} is vol ({code}): maak daar ruimte vrij, of verplaats de map naar een grotere schijf, en start dan opnieuw.',
  'cli.error.machine.files':
    'te veel open bestanden ({code}) bij {folder}: verhoog de limiet van open bestanden (ulimit -n, of LimitNOFILE= in de systemd-unit) en start dan opnieuw.',
  'cli.outage.locks-lost':
    '{count, plural, one {Van # taak ging de vergrendeling} other {Van # taken gingen de vergrendelingen}} verloren terwijl Redis weg was: ze worden overgenomen en gaan verder vanaf de laatst vastgelegde stap.',
  'cli.error.purge.bad-date.future':
    'order-importer purge --before {date}: na nu, dus elke lijst die tot nu gerapporteerd is, zou verwijderd worden; geef een datum tot nu ({now} op zijn laatst).',
  'cli.error.machine.database':
    'de schijf van {folder} is vol ({code}): de ingebouwde testomgeving kan haar database daar niet schrijven. Maak ruimte vrij op die schijf, of zet DATA_DIR op een map op een grotere schijf, en start dan opnieuw.',
  'cli.error.redis.unavailable.refused':
    'REDIS_URL {url}: Redis weigert de gebruiker en het wachtwoord ({reason}): controleer ze in REDIS_URL, en of de gebruiker aan staat (ACL SETUSER … on).',
  'cli.error.redis.unavailable.certificate':
    'REDIS_URL {url}: het certificaat van die Redis wordt niet vertrouwd ({reason}): {ca, select, none {stel REDIS_TLS_CA_FILE in op het CA-certificaat (PEM) dat het ondertekende} other {REDIS_TLS_CA_FILE is niet de CA die het ondertekende, of het certificaat is niet voor die host uitgegeven}}.',
  'cli.error.redis.unavailable.no-sentinel':
    'REDIS_URL {url}: geen enkele sentinel antwoordt ({reason}): start de sentinels, of controleer hun hosts en poorten in REDIS_URL.',
  'cli.error.redis.unavailable.no-master':
    'REDIS_URL {url}: de sentinels kennen geen master met de naam “{name}” ({known, select, none {ze bewaken er geen} other {ze bewaken: {known}}}): laat REDIS_URL eindigen op de naam die hun `sentinel monitor` hem geeft.',
  'cli.error.config.invalid.tls-ca-unreadable':
    'REDIS_TLS_CA_FILE {file} is niet bruikbaar: {reason}.',
  'cli.error.config.invalid.tls-ca-without-tls':
    'REDIS_TLS_CA_FILE is ingesteld, maar met REDIS_URL {url} wordt niet over TLS gesproken: schrijf rediss:// (of rediss+sentinel://), of verwijder REDIS_TLS_CA_FILE.',
  'cli.help.setting.redisTlsCaFile':
    'het CA-certificaat (PEM) dat het certificaat van een rediss://-Redis ondertekende, als geen CA van het systeem dat deed',
  'cli.help.default.redisTlsCaFile': 'de CA’s van het systeem',
  'cli.error.redis.unavailable.cluster':
    'REDIS_URL {url}: geen enkele node van de Redis Cluster antwoordt ({problem}): start de Cluster, of controleer de nodes in REDIS_URL.',
  'cli.error.redis.unavailable.not-cluster':
    'REDIS_URL {url} noemt een Redis Cluster, maar de nodes zijn geen Cluster ({problem}): geef één server op als redis://host:poort.',
};
