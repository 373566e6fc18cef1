import type { rows as english } from '../en/rows.js';
import type { Translation } from '../translation.js';

export const rows: Translation<typeof english> = {
  'rows.line': 'regel {line}',

  'rows.required.property_type':
    '{column} ontbreekt: vul het type pand in, bv. “Rijwoning / Duplex”{hint}.',
  'rows.required.address1': '{column} ontbreekt: vul de straat van het pand in{hint}.',
  'rows.required.address2':
    '{column} ontbreekt: vul het huisnummer (en busnummer) van het pand in{hint}.',
  'rows.required.city': '{column} ontbreekt: vul de gemeente van het pand in{hint}.',
  'rows.required.postal_code': '{column} ontbreekt: vul de postcode van het pand in{hint}.',
  'rows.required.contact_name': '{column} ontbreekt: vul de naam van de contactpersoon in{hint}.',
  'rows.required.contact_language':
    '{column} ontbreekt: vul de taal van de contactpersoon in (nl, en of fr){hint}.',
  'rows.required.invoice_to':
    '{column} ontbreekt: vul in wie de factuur krijgt: tenant (de contactpersoon), salesman (u) of other (iemand anders){hint}.',
  'rows.required.is_contact_owner':
    '{column} ontbreekt: vul in wie de eigenaar is: contact (de contactpersoon), yes (u) of other (iemand anders){hint}.',
  'rows.required.order_products':
    '{column} ontbreekt: vul in welke keuringen u bestelt, bv. EPC|ELEC-1.1{hint}.',
  'rows.required.contact_email':
    '{column} ontbreekt: vul het e-mailadres van de contactpersoon in; heeft die er geen, zet dan {flag} op ja.',
  'rows.required.inv_mail':
    '{column} ontbreekt: vul het e-mailadres voor de factuur in; is er geen, zet dan {flag} op ja.',
  'rows.hint.column': '; staat dat in de kolom “{column}”, {advice}',
  'rows.advice.add': 'voeg {entries} toe aan {target}',
  'rows.advice.addToColumns': 'voeg {entries} toe onder “columns” in {target}',
  'rows.advice.besideSheet': 'een mapping.json naast de lijst',

  'rows.conditional.breaker_boxes':
    '{column} ontbreekt: {id} (“{product}”) is een elektrische keuring; vul het aantal zekeringkasten in.',
  'rows.conditional.units':
    '{column} ontbreekt: {id} (“{product}”) wordt per wooneenheid aangerekend; vul het aantal wooneenheden in.',
  'rows.conditional.floors':
    '{column} ontbreekt: {id} (“{product}”) wordt per verdieping aangerekend; vul het aantal verdiepingen in.',

  'rows.value.refused': '{column} {problem} (ingevuld: “{value}”).',
  'rows.value.refusedOrWord':
    '{column} {problem}, of een van de woorden die {file} daarvoor onder “values” geeft (ingevuld: “{value}”).',
  'rows.value.notText': 'moet tekst zijn',
  'rows.value.tooLong': 'mag niet langer zijn dan {max} tekens',
  'rows.value.notWhole': 'moet een geheel getal zijn',
  'rows.value.atLeast': 'moet minstens {min} zijn',
  'rows.value.notFlag': 'moet ja of nee zijn (ook 1/0, true/false, yes/no, oui/non)',
  'rows.value.oneOf': 'moet een van deze waarden zijn: {allowed}',
  'rows.value.invoiceTo':
    'moet een van deze waarden zijn: “tenant” (de contactpersoon), “salesman” (u, uw kantoor) of “other” (iemand anders)',
  'rows.value.isContactOwner':
    'moet een van deze waarden zijn: “contact” (de contactpersoon), “yes” (u, uw kantoor) of “other” (iemand anders)',
  'rows.value.notFiles':
    'moet bestandsnamen bevatten, gescheiden door | (of een lijst van bestandsnamen in JSON-vorm)',
  'rows.email.invalid':
    '{column} bevat geen geldig e-mailadres (ingevuld: “{value}”): schrijf het als naam@domein.be.',

  'rows.products.none': '{column} bevat geen product: vul er minstens één in, bv. EPC.',
  'rows.products.unknown':
    '{column} bevat een onbekend product: “{id}” (bekende producten: {known}).',
  'rows.products.quantity': 'Het aantal voor {id} in {column} {problem} (ingevuld: “{value}”).',
  'rows.products.notProduct':
    '{column} bevat “{value}”, en dat is geen product: schrijf een productcode, eventueel met het aantal erachter, zoals EPC of EPC:2.',

  'rows.reference.taken':
    '{column} “{reference}” wordt al gebruikt in rij {row}: elke rij heeft een eigen referentie nodig.',
  'rows.extraCells':
    'Deze rij heeft {count, plural, one {# cel} other {# cellen}} meer dan er kolomnamen zijn: geef {count, plural, one {die kolom} other {die kolommen}} een naam in de rij met kolomnamen, of maak {count, plural, one {de cel} other {de cellen}} leeg.',

  'rows.attachment.problem': '{column}: {problem}',
  'rows.attachment.missing':
    '“{path}” bestaat niet naast de lijst: geef een bijlage op vanuit de map van de lijst, en zet ze samen met de lijst in de inbox.',
  'rows.attachment.unreadable': '“{path}” kan niet gelezen worden ({code}).',
  'rows.attachment.folder': '“{path}” is een map, geen document.',
  'rows.attachment.notFile': '“{path}” is geen gewoon bestand, en dus geen document.',
  'rows.attachment.tooLarge':
    '“{path}” is {size} MB ({bytes} bytes), groter dan de toegelaten {limit} MB ({limitBytes} bytes) per bijlage (MAX_ATTACHMENT_MB).',
  'rows.attachment.invalidPath': '“{path}” is geen geldig pad.',
  'rows.attachment.absolute':
    '“{path}” is een absoluut pad: geef het pad op vanuit de map van de lijst.',
  'rows.attachment.outside':
    '“{path}” verwijst naar een plaats buiten de map van de lijst: bijlagen moeten in die map staan, of in een map daaronder.',
  'rows.attachment.link':
    '“{path}” is een symbolische koppeling: bijlagen worden nooit via een koppeling gelezen; zet het bestand zelf op die plaats.',
  'rows.attachment.linkOnTheWay':
    '“{path}” loopt via {link}, een symbolische koppeling: bijlagen worden nooit via een koppeling gelezen; zet de map zelf op die plaats.',
  'rows.attachment.hardLink':
    '“{path}” is een vaste koppeling (hetzelfde bestand heeft {names} namen op de schijf, misschien ook buiten de map van de lijst, en bijlagen worden alleen binnen die map gelezen): kopieer het bestand naar de map in plaats van ernaar te koppelen.',
  'rows.mapping.flag': '--mapping {file}',
  'rows.mapping.beside': '{file} (naast de lijst)',
  'rows.mapping.connection': '{file} (de mapping van de verbinding)',
  'rows.mapping.config': '{file} (de “mapping” uit het configuratiebestand)',
  'rows.warning.mappingUsed': 'Gelezen met de mapping {mapping}.',
  'rows.warning.mappingUsedFor': 'Gelezen met de mapping {mapping}: {what}.',
  'rows.warning.mappedColumns': 'kolommen {columns}',
  'rows.warning.more': 'en nog {count}',
  'rows.warning.noMappedColumn': 'geen van de kolomnamen uit de mapping staat in deze lijst',
  'rows.warning.valueWords': 'woorden voor de waarden van {fields}',
  'rows.warning.both': '{first}; {second}',
  'rows.warning.unknown':
    '{count, plural, one {De kolom {list} werd genegeerd: dat is geen veld van een opdracht.} other {De kolommen {list} werden genegeerd: dat zijn geen velden van een opdracht.}}',
  'rows.warning.mapIt':
    '{unknown} Hoort een kolom toch bij een veld van een opdracht, maar onder een andere naam, koppel ze dan aan dat veld in {target}, zoals {example}.',
  'rows.warning.didYouMean': '{unknown} Bedoelt u {guesses}? {advice}.',
  'rows.warning.nameless':
    '{count, plural, one {# rij heeft} other {# rijen hebben}} waarden in een kolom zonder naam (kolom {letters}); die worden genegeerd: geef de kolom een naam in de rij met kolomnamen.',
  'rows.outcome.refused': 'De API weigerde de opdracht: {reason}',
  'rows.outcome.noMoreRetries': 'Na herhaalde pogingen opgegeven: {reason}',
  'rows.outcome.duplicate': 'Al geïmporteerd als opdracht {orderId} (lijst {sheetId}, rij {row}).',
  'rows.outcome.earlierUnknown':
    'Bij een eerdere import van deze rij (lijst {sheetId}, rij {row}) is niet bekend of de opdracht aangemaakt werd: kijk na of die opdracht bestaat voor u de rij opnieuw importeert.',
  'rows.outcome.unknown':
    'De opdracht werd verstuurd {sentAt, select, none {op een onbekend tijdstip} other {op {sentAt}}}, maar het is niet bekend of ze aangemaakt werd ({answer}). Misschien bestaat ze dus al: kijk dat na bij de keuringsfirma (of in de API) voor u deze rij opnieuw importeert; wie ze zomaar opnieuw importeert, kan ze een tweede keer aanmaken.',
  'rows.outcome.filesMissing':
    'Opdracht {orderId} bestaat, maar {count, plural, one {# bijlage kon} other {# bijlagen konden}} niet toegevoegd worden: {refused}. Zet de map failed/ (met deze rij) opnieuw in de inbox om ze alsnog aan dezelfde opdracht toe te voegen.',
  'rows.outcome.resent':
    'Opnieuw verstuurd na een onduidelijk antwoord, dus misschien twee keer toegevoegd: {files}.',
  'rows.outcome.notProcessed':
    'Niet verwerkt: voor deze rij werd geen resultaat geregistreerd (zie de waarschuwingen).',
  'rows.outcome.sheetChanged':
    'Niet geïmporteerd: de lijst werd tijdens het importeren gewijzigd (overschreven of verwijderd). De rijen die toen nog niet in de wachtrij stonden, werden geweigerd, zodat er geen opdrachten uit twee versies van de lijst komen. Importeer de lijst opnieuw om haar nieuwe inhoud in te lezen.',
  'rows.again.made':
    'De inhoud van deze lijst werd al eerder geïmporteerd (lijst {sheetId}); opdracht {orderId} werd toen voor deze rij aangemaakt.',
  'rows.again.done': 'De inhoud van deze lijst werd al eerder geïmporteerd (lijst {sheetId}).',
  'rows.again.review':
    'De inhoud van deze lijst werd al eerder geïmporteerd (lijst {sheetId}); deze rij moest toen nagekeken worden (needs-review): kijk eerst needs-review.csv van die import na.',
  'rows.again.failed':
    'De inhoud van deze lijst werd al eerder geïmporteerd (lijst {sheetId}); toen werd voor deze rij geen opdracht aangemaakt (ze is mislukt): verbeter ze in de map failed/ van die import.',
  'rows.again.partly':
    'De inhoud van deze lijst werd al eerder geïmporteerd (lijst {sheetId}); opdracht {orderId} werd toen aangemaakt, maar niet met al haar bijlagen: zet de map failed/ van die import opnieuw in de inbox om ze te vervolledigen.',
  'rows.again.invalid':
    'De inhoud van deze lijst werd al eerder geïmporteerd (lijst {sheetId}); toen werd voor deze rij geen opdracht aangemaakt (ze was ongeldig): verbeter ze in de map failed/ van die import.',
  'rows.again.unknown':
    'De inhoud van deze lijst werd al eerder geïmporteerd (lijst {sheetId}); er is geen opdracht bekend die toen voor deze rij aangemaakt werd.',
  'rows.warning.changedSince':
    'De lijst is gewijzigd sinds ze geïmporteerd werd: dit rapport en failed/ gaan over de geïmporteerde versie (sha256 {sha}…), niet over het bestand zoals het nu is.',
  'rows.warning.bundlesChanged':
    'De lijst is gewijzigd sinds ze geïmporteerd werd: failed/ en needs-review.csv werden niet geschreven (report.csv vermeldt elke rij).',
  'rows.warning.bundlesUnreadable':
    'De lijst kon niet meer gelezen worden: failed/ en needs-review.csv werden niet geschreven ({reason}).',
  'rows.warning.mappingNotWritten':
    'failed/mapping.json werd niet geschreven (er staat een bijlage met die naam in failed/): zet de mapping zelf in failed/ voor u die map opnieuw in de inbox zet.',
  'rows.warning.notCopied': 'Rij {row}: niet gekopieerd naar failed/: {reason}',
  'rows.warning.copyFailed':
    'Rij {row}: “{path}” kon niet naar failed/ gekopieerd worden ({reason}).',
  'rows.outcome.notProcessedBecause': 'Niet verwerkt: {reason}',
  'rows.outcome.gaveUp': 'De verwerking van de rij werd stopgezet: {reason}',
  'rows.outcome.gaveUpAfterSending':
    'De verwerking van de rij werd stopgezet ({reason}) nadat de opdracht verstuurd was{sentAt, select, none {} other { op {sentAt}}}: het is niet zeker of de opdracht bestaat.',
  'rows.warning.stopped': 'De verwerking van de lijst stopte na rij {row}: {reason}',
  'rows.clash': '“{first}” en “{second}” staan allebei voor {field}: laat er maar één staan.',
  'rows.attachment.moved':
    '“{path}” werd niet gelezen: het werd verplaatst terwijl het geopend werd, of het bleek via een symbolische koppeling bereikt te worden.',
  'rows.attachment.movedAway':
    '“{path}” werd niet verplaatst en blijft waar het is: het werd intussen door iets anders verplaatst, of het bleek via een symbolische koppeling bereikt te worden.',
  'rows.outcome.stoppedBeforeRows': 'De verwerking stopte voordat de rijen gelezen waren: {reason}',
  'rows.outcome.sheetJobGaveUp': 'het inlezen van de lijst werd stopgezet: {reason}',
  'rows.outcome.noAnswerRecorded':
    'geen antwoord bewaard: de poging waarmee ze verstuurd werd, is gestopt of heeft nooit antwoord gekregen',
};
