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
  'rows.hint.column': '; staat het in de kolom “{column}”, {advice}',
  'rows.advice.add': 'voeg dan {entries} toe aan {target}',
  'rows.advice.addToColumns': 'voeg dan {entries} toe onder “columns” in {target}',
  'rows.advice.besideSheet': 'een mapping.json naast de lijst',

  'rows.conditional.breaker_boxes':
    '{column} ontbreekt: {id} (“{product}”) is een elektrische keuring; vul het aantal zekeringkasten in.',
  'rows.conditional.units':
    '{column} ontbreekt: {id} (“{product}”) wordt per wooneenheid aangerekend; vul het aantal wooneenheden in.',
  'rows.conditional.floors':
    '{column} ontbreekt: {id} (“{product}”) wordt per verdieping aangerekend; vul het aantal verdiepingen in.',

  'rows.value.refused': '{column} {problem} (nu: “{value}”).',
  'rows.value.refusedOrWord':
    '{column} {problem}, of een van de woorden die {file} daarvoor onder “values” geeft (nu: “{value}”).',
  'rows.value.notText': 'moet tekst zijn',
  'rows.value.tooLong': 'mag niet langer zijn dan {max} tekens',
  'rows.value.notWhole': 'moet een geheel getal zijn',
  'rows.value.atLeast': 'moet minstens {min} zijn',
  'rows.value.notFlag': 'moet ja of nee zijn (ook 1/0, true/false, yes/no, oui/non)',
  'rows.value.oneOf': 'moet een van deze waarden zijn: {allowed}',
  'rows.value.invoiceTo':
    'moet een van deze waarden zijn: "tenant" (de contactpersoon), "salesman" (u, de gebruiker van de API), "other" (iemand anders)',
  'rows.value.isContactOwner':
    'moet een van deze waarden zijn: "contact" (de contactpersoon), "yes" (u, de gebruiker van de API), "other" (iemand anders)',
  'rows.value.notFiles':
    'moet bestandsnamen bevatten, gescheiden door | (of een JSON-lijst van paden)',
  'rows.email.invalid':
    '{column} bevat geen geldig e-mailadres (nu: “{value}”): schrijf het als naam@domein.be.',

  'rows.products.none': '{column} bevat geen product: vul er minstens één in, bv. EPC.',
  'rows.products.unknown': '{column} bevat een onbekend product, “{id}” (wel bekend: {known}).',
  'rows.products.quantity': 'Het aantal voor {id} in {column} {problem} (nu: “{value}”).',
  'rows.products.notProduct':
    '{column} bevat “{value}”, en dat is geen product: schrijf ID of ID:AANTAL.',

  'rows.reference.taken':
    '{column} “{reference}” staat al bij rij {row}: elke rij heeft een eigen referentie nodig.',
  'rows.extraCells':
    'Deze rij heeft {count, plural, one {# cel} other {# cellen}} meer dan de kopregel kolommen heeft: geef {count, plural, one {die kolom} other {die kolommen}} een naam in de kopregel, of maak {count, plural, one {de cel} other {de cellen}} leeg.',

  'rows.attachment.problem': '{column}: {problem}',
  'rows.attachment.missing':
    '“{path}” staat niet naast de lijst: een bijlage wordt genoemd vanuit de map van de lijst, en samen met de lijst in de inbox gezet.',
  'rows.attachment.unreadable': '“{path}” kan niet gelezen worden ({code}).',
  'rows.attachment.folder': '“{path}” is een map, geen document.',
  'rows.attachment.notFile': '“{path}” is geen gewoon bestand, en dus geen document.',
  'rows.attachment.tooLarge':
    '“{path}” is {size} MB ({bytes} bytes), meer dan de grens van {limit} MB ({limitBytes} bytes) per bijlage (MAX_ATTACHMENT_MB).',
  'rows.attachment.invalidPath': '“{path}” is geen geldig pad.',
  'rows.attachment.absolute':
    '“{path}” is een absoluut pad: geef het pad vanuit de map van de lijst.',
  'rows.attachment.outside':
    '“{path}” wijst naar buiten de map van de lijst: bijlagen moeten in die map staan, of in een map daaronder.',
  'rows.attachment.link':
    '“{path}” is een symbolische koppeling: bijlagen worden nooit via een koppeling gelezen; zet het bestand zelf op die plaats.',
  'rows.attachment.linkOnTheWay':
    '“{path}” loopt via {link}, een symbolische koppeling: bijlagen worden nooit via een koppeling gelezen; zet de map zelf op die plaats.',
  'rows.attachment.hardLink':
    '“{path}” is een harde koppeling (hetzelfde bestand heeft {names} namen op de schijf, misschien buiten de map van de lijst, en bijlagen worden alleen daarbinnen gelezen): kopieer het bestand in de map in plaats van het te koppelen.',
  'rows.mapping.flag': '--mapping {file}',
  'rows.mapping.beside': '{file} (naast de lijst)',
  'rows.mapping.connection': '{file} (de mapping van de verbinding)',
  'rows.mapping.config': '{file} (de “mapping” van het configuratiebestand)',
  'rows.warning.mappingUsed': 'Gelezen met de mapping {mapping}.',
  'rows.warning.mappingUsedFor': 'Gelezen met de mapping {mapping}: {what}.',
  'rows.warning.mappedColumns': 'kolommen {columns}',
  'rows.warning.more': 'nog {count}',
  'rows.warning.noMappedColumn': 'geen van de kolomnamen ervan staat in deze lijst',
  'rows.warning.valueWords': 'woorden voor de waarden van {fields}',
  'rows.warning.both': '{first}; {second}',
  'rows.warning.unknown':
    '{count, plural, one {Onbekende kolom genegeerd: {list}: dat is geen veld van een opdracht.} other {Onbekende kolommen genegeerd: {list}: dat zijn geen velden van een opdracht.}}',
  'rows.warning.mapIt':
    '{unknown} Bevat een ervan toch een veld onder een andere naam, koppel het dan in {target}, zoals {example}.',
  'rows.warning.didYouMean': '{unknown} Bedoelt u {guesses}? {advice}.',
  'rows.warning.nameless':
    '{count, plural, one {# rij heeft} other {# rijen hebben}} waarden in een kolom zonder naam (kolom {letters}); die worden genegeerd: geef de kolom een naam in de kopregel.',
  'rows.outcome.refused': 'De API weigerde de opdracht: {reason}',
  'rows.outcome.noMoreRetries': 'Geen nieuwe pogingen meer: {reason}',
  'rows.outcome.duplicate': 'Al geïmporteerd als opdracht {orderId} (lijst {sheetId}, rij {row}).',
  'rows.outcome.earlierUnknown':
    'Een eerdere import van deze rij (lijst {sheetId}, rij {row}) heeft een onbekende afloop: kijk na of die opdracht bestaat voor u de rij opnieuw importeert.',
  'rows.outcome.unknown':
    'De opdracht werd verstuurd op {sentAt}, maar de afloop is onbekend ({answer}). Ze bestaat misschien al: zoek ze op bij het keuringsbedrijf (of in de API) voor u deze rij opnieuw importeert; zomaar opnieuw importeren kan ze een tweede keer aanmaken.',
  'rows.outcome.filesMissing':
    'Opdracht {orderId} bestaat, maar {count, plural, one {# bijlage kon} other {# bijlagen konden}} niet toegevoegd worden: {refused}. Zet de rij uit failed/ opnieuw in de inbox om ze aan dezelfde opdracht toe te voegen.',
  'rows.outcome.resent':
    'Opnieuw verstuurd na een onduidelijk antwoord, dus misschien twee keer toegevoegd: {files}.',
  'rows.outcome.notProcessed':
    'Niet verwerkt: voor deze rij werd geen resultaat bijgehouden (zie de waarschuwingen).',
  'rows.outcome.sheetChanged':
    'Niet geïmporteerd: de lijst veranderde tijdens het importeren (ze werd overschreven of verwijderd), en haar rijen die toen nog niet in de wachtrij stonden, werden geweigerd, zodat geen opdrachten uit twee versies ervan komen. Zet de lijst opnieuw in de wachtrij om haar nieuwe inhoud te importeren.',
  'rows.again.made':
    'De inhoud van deze lijst werd al eerder geïmporteerd (lijst {sheetId}); opdracht {orderId} werd toen voor deze rij gemaakt.',
  'rows.again.done': 'De inhoud van deze lijst werd al eerder geïmporteerd (lijst {sheetId}).',
  'rows.again.review':
    'De inhoud van deze lijst werd al eerder geïmporteerd (lijst {sheetId}); de afloop van deze rij was toen onbekend (needs-review): kijk eerst needs-review.csv van die import na.',
  'rows.again.failed':
    'De inhoud van deze lijst werd al eerder geïmporteerd (lijst {sheetId}); toen werd voor deze rij geen opdracht gemaakt (ze mislukte): verbeter ze vanuit de map failed/ van die import.',
  'rows.again.partly':
    'De inhoud van deze lijst werd al eerder geïmporteerd (lijst {sheetId}); opdracht {orderId} werd toen gemaakt, maar niet met al haar bijlagen: zet de map failed/ van die import opnieuw in de inbox om ze te vervolledigen.',
  'rows.again.invalid':
    'De inhoud van deze lijst werd al eerder geïmporteerd (lijst {sheetId}); toen werd voor deze rij geen opdracht gemaakt (ze was ongeldig): verbeter ze vanuit de map failed/ van die import.',
  'rows.again.unknown':
    'De inhoud van deze lijst werd al eerder geïmporteerd (lijst {sheetId}); er is geen opdracht bekend die toen voor deze rij gemaakt werd.',
  'rows.warning.changedSince':
    'De lijst is veranderd sinds ze geïmporteerd werd: dit rapport en failed/ gaan over de geïmporteerde versie (sha256 {sha}…), niet over het bestand zoals het nu is.',
  'rows.warning.bundlesChanged':
    'De lijst is veranderd sinds ze geïmporteerd werd: failed/ en needs-review.csv werden niet geschreven (report.csv vermeldt elke rij).',
  'rows.warning.bundlesUnreadable':
    'De lijst kon niet meer gelezen worden: failed/ en needs-review.csv werden niet geschreven ({reason}).',
  'rows.warning.mappingNotWritten':
    'failed/mapping.json werd niet geschreven (een bijlage daar heeft die naam): zet de mapping in failed/ voor u de map opnieuw in de inbox zet.',
  'rows.warning.notCopied': 'Rij {row}: niet gekopieerd naar failed/: {reason}',
  'rows.warning.copyFailed':
    'Rij {row}: “{path}” kon niet naar failed/ gekopieerd worden ({reason}).',
  'rows.outcome.notProcessedBecause': 'Niet verwerkt: {reason}',
  'rows.outcome.gaveUp': 'De verwerking van de rij werd opgegeven: {reason}',
  'rows.outcome.gaveUpAfterSending':
    'De verwerking van de rij werd opgegeven ({reason}) nadat de opdracht verstuurd was{sentAt, select, none {} other { op {sentAt}}}: de opdracht bestaat misschien, misschien niet.',
  'rows.warning.stopped': 'De verwerking van de lijst stopte na rij {row}: {reason}',
  'rows.clash': '“{first}” en “{second}” geven allebei {field}: hou er één van over.',
  'rows.attachment.moved':
    '“{path}” werd via een symbolische koppeling bereikt, of verplaatst, terwijl het geopend werd: het werd niet gelezen.',
  'rows.attachment.movedAway':
    '“{path}” werd via een symbolische koppeling bereikt, of verplaatst, terwijl het verplaatst werd: het blijft waar het is.',
  'rows.outcome.stoppedBeforeRows': 'De verwerking stopte voordat de rijen gelezen waren: {reason}',
  'rows.outcome.sheetJobGaveUp': 'de verwerking van de lijst werd opgegeven: {reason}',
  'rows.outcome.unknownTime': 'een onbekend tijdstip',
  'rows.outcome.noAnswerRecorded':
    'geen antwoord bewaard: de poging die ze verstuurde, stopte of kreeg nooit antwoord',
};
