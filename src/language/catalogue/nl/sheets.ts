import type { sheets as english } from '../en/sheets.js';
import type { Translation } from '../translation.js';

export const sheets: Translation<typeof english> = {
  'sheets.line': 'regel {line}',
  'sheets.atLine': 'regel {line}: {message}',
  'sheets.mappingUnusable': 'de mapping kan niet gebruikt worden: {reason}',
  'sheets.empty':
    'de lijst is leeg: ze heeft een rij met kolomnamen en minstens één opdracht nodig.',
  'sheets.utf16':
    'de lijst is opgeslagen als UTF-16 (“Unicode-tekst”); sla ze in Excel op als “CSV UTF-8” of als “CSV (gescheiden door lijstscheidingsteken)”.',
  'sheets.binary':
    'dit is geen tekstbestand (er staan binaire gegevens in); is het een Excel-werkmap, dan moet de naam op .xlsx eindigen.',
  'sheets.strayBytes':
    'de lijst is opgeslagen als UTF-8, behalve enkele onleesbare tekens op {where} (wellicht tekst die uit een ander programma met een andere tekenset geplakt is, of een beschadigd bestand): verbeter die tekens en sla de lijst opnieuw op als UTF-8 (in Excel: “CSV UTF-8”).',
  'sheets.strayBytes.line': 'regel {line}',
  'sheets.strayBytes.lines': 'de regels {lines} en {last}',
  'sheets.strayBytes.more':
    'de regels {lines} en {more, plural, one {nog # andere regel} other {nog # andere regels}}',
  'sheets.format.refused':
    'dit is {kind, select, xls {een Excel-werkmap in het oude formaat (.xls)} xlsb {een binaire Excel-werkmap (.xlsb)} ods {een OpenDocument-rekenblad (.ods)} other {een Numbers-rekenblad}}, en dat leest de importer niet: sla het bestand op als .xlsx of als CSV.',
  'sheets.format.unknown':
    '“{extension}” is geen bestandstype voor een lijst: gebruik .csv, .xlsx, .json, .ndjson of .jsonl.',
  'sheets.unreadableFormat':
    'de lijst kan niet gelezen worden in het formaat dat haar naam aangeeft.',
  'sheets.changedBeforeRead':
    'de lijst is gewijzigd nadat ze in de wachtrij gezet werd: importeer ze opnieuw om de nieuwe inhoud in te lezen.',
  'sheets.mappingFile':
    '{file} is een mapping (kolomnamen en woorden voor de lijsten ernaast), geen lijst met opdrachten: ze wordt gebruikt om die lijsten te lezen, maar wordt zelf nooit geïmporteerd.',
  'sheets.header.noField':
    'de rij met kolomnamen bevat geen enkel veld van een opdracht ({shown}){mapped, select, yes { (de mapping {mapping} koppelt geen van die namen aan een veld)} other {}}: de rij boven de opdrachten moet de kolommen benoemen, bv. address1, city, order_products; of koppel uw eigen kolomnamen aan die velden in {target}, zoals {example}.',
  'sheets.header.noFieldHinted':
    'de rij met kolomnamen bevat geen enkel veld van een opdracht ({shown}){mapped, select, yes { (de mapping {mapping} koppelt geen van die namen aan een veld)} other {}}: de rij boven de opdrachten moet de kolommen benoemen, bv. address1, city, order_products. Om uw eigen kolomnamen aan die velden te koppelen: {advice}.',
  'sheets.header.cellErrors': 'de rij met kolomnamen heeft {errors}.',
  'sheets.mapping.source':
    '{kind, select, flag {--mapping {file}} beside {{file} (naast de lijst)} connection {{file} (de mapping van de verbinding)} other {{file} (de “mapping” uit het configuratiebestand)}}',
  'sheets.csv.noHeader': 'de lijst heeft geen rij met kolomnamen: er staan alleen lege regels in.',
  'sheets.csv.emptyHeader':
    'de rij met kolomnamen is leeg: de eerste rij moet de kolommen benoemen.',
  'sheets.csv.quoteNotClosed':
    'een cel tussen aanhalingstekens wordt nergens afgesloten: een `"` opent een cel die tot het einde van het bestand doorloopt.',
  'sheets.csv.recordTooLarge':
    'een rij is groter dan 1 MB: wellicht opent een `"` een cel die nergens afgesloten wordt.',
  'sheets.csv.textAfterQuote':
    'een cel tussen aanhalingstekens heeft nog tekst na het sluitende aanhalingsteken; schrijf een aanhalingsteken binnen zo’n cel als "".',
  'sheets.csv.quoteInCell': 'er begint een aanhalingsteken midden in een cel.',
  'sheets.csv.unreadable': 'het CSV-bestand kan niet gelezen worden ({detail}).',
  'sheets.json.emptyArray': 'de JSON-array is leeg: er staat geen opdracht in.',
  'sheets.json.lineTooLarge':
    'een regel is groter dan 1 MB: er wordt één opdracht per regel verwacht.',
  'sheets.json.allBlank': 'de lijst bevat geen opdracht: elke regel is leeg.',
  'sheets.json.broken': 'de JSON klopt niet in opdracht {order}: {detail}',
  'sheets.json.orderTooLarge': 'een opdracht in de JSON-array is groter dan 1 MB.',
  'sheets.json.empty': 'de lijst is leeg.',
  'sheets.json.notClosed':
    'de JSON-array wordt niet gesloten: het bestand eindigt vóór de laatste `]`.',
  'sheets.json.notArray':
    'een .json-lijst moet een JSON-array van opdrachten zijn: [ {example} ] (één object per regel is .ndjson).',
  'sheets.json.afterComma': 'onverwacht teken “{character}” na een komma in de JSON-array.',
  'sheets.json.textAfterEnd': 'er staat nog tekst na het einde van de JSON-array.',
  'sheets.workbook.saveAgain':
    'open het bestand in Excel en sla het opnieuw op als .xlsx, of als CSV.',
  'sheets.workbook.fix': '{problem}: {fix}',
  'sheets.workbook.notWorkbook': 'dit bestand is geen Excel-werkmap (.xlsx)',
  'sheets.workbook.ods': 'het is een OpenDocument-bestand (.ods): sla het op als .xlsx of als CSV.',
  'sheets.workbook.zipWithoutBook': 'het is een zip-bestand zonder werkmap erin',
  'sheets.workbook.emptyFile': 'de werkmap is leeg (0 bytes).',
  'sheets.workbook.passwordOrXls':
    'de werkmap is met een wachtwoord beveiligd (of is een oud .xls-bestand met een andere naam): verwijder het wachtwoord in Excel (Bestand > Info > Werkmap beveiligen) en sla ze op als .xlsx, of sla ze op als CSV.',
  'sheets.workbook.encrypted':
    'de werkmap is versleuteld (met een wachtwoord beveiligd): verwijder het wachtwoord in Excel en sla ze op als .xlsx, of sla ze op als CSV.',
  'sheets.workbook.tooManyParts':
    'de werkmap bestaat uit {count} onderdelen, te veel voor een werkmap',
  'sheets.workbook.twoParts':
    'de werkmap heeft twee onderdelen met de naam {part}, zodat niet uit te maken is welk van de twee Excel toont',
  'sheets.workbook.noPart': 'in de werkmap ontbreekt het onderdeel {part}',
  'sheets.workbook.packedOddly': 'de werkmap is ingepakt op een manier die Excel niet gebruikt',
  'sheets.workbook.damaged': 'de werkmap is beschadigd',
  'sheets.workbook.cutShort':
    'de werkmap is beschadigd of onvolledig (afgebroken tijdens het kopiëren?)',
  'sheets.workbook.partNotUnpacked':
    'de werkmap is beschadigd (het onderdeel {part} kan niet uitgepakt worden)',
  'sheets.workbook.sheetLeadsNowhere':
    'de werkmap is beschadigd (het blad “{sheet}” verwijst naar geen enkel onderdeel)',
  'sheets.workbook.worksheetGone': 'de werkmap is beschadigd (het werkblad “{sheet}” ontbreekt)',
  'sheets.workbook.partNotXml':
    'de werkmap is beschadigd (het onderdeel {part} is geen geldige XML: {detail})',
  'sheets.workbook.worksheetNotXml':
    'de werkmap is beschadigd (het werkblad of de teksten zijn geen geldige XML: {detail})',
  'sheets.workbook.tooBig':
    '{part} van de werkmap is na het uitpakken {megabytes} MB groot, meer dan de {limit} MB die de importer leest: sla de werkmap op als CSV.',
  'sheets.workbook.part.worksheet': 'het werkblad “{sheet}”',
  'sheets.workbook.part.named': 'het onderdeel {part}',
  'sheets.workbook.part.file': 'het onderdeel {part}',
  'sheets.workbook.stoppedEarly': 'het lezen van de werkmap is te vroeg gestopt.',
  'sheets.workbook.memory':
    'de werkmap heeft meer dan {megabytes} MB geheugen nodig om gelezen te worden (een heel grote tabel met teksten): sla ze op als CSV.',
  'sheets.workbook.unreadable':
    'de werkmap kan niet gelezen worden ({detail}): open ze in Excel en sla ze opnieuw op als .xlsx, of sla ze op als CSV.',
  'sheets.workbook.noWorksheet':
    'de werkmap bevat geen werkblad (alleen grafiekbladen, of helemaal geen bladen)',
  'sheets.workbook.worksheetNotFound':
    'de werkmap heeft geen werkblad “{wanted}” (dat “worksheet” in de mapping vraagt); de werkbladen heten {listed}.',
  'sheets.workbook.rowOutOfOrder':
    'rij {row} van het werkblad staat niet in de juiste volgorde of ligt voorbij de laatste rij van Excel: de werkmap is beschadigd; open ze in Excel en sla ze opnieuw op als .xlsx, of sla ze op als CSV.',
  'sheets.workbook.cellBeyond':
    'het werkblad heeft een cel “{cell}” voorbij de laatste kolom van Excel: de werkmap is beschadigd; open ze in Excel en sla ze opnieuw op als .xlsx, of sla ze op als CSV.',
  'sheets.failed.cannotBeRead':
    '{name} kan niet gelezen worden; er werd dus geen enkele opdracht van aangemaakt:',
  'sheets.failed.readWith': 'De lijst werd gelezen met de mapping {mapping}.',
  'sheets.failed.fix': 'Verbeter de lijst en zet ze opnieuw in de inbox.',
  'sheets.failed.notTaken':
    'kan niet gelezen worden en werd daarom verplaatst naar {folder}: {reason}',
  'sheets.notTaken.linkedSheet':
    '{path} is een symbolische koppeling: de inbox neemt geen gekoppelde lijst op en leest niets via een koppeling. De koppeling blijft waar ze is; zet het bestand zelf in de inbox.',
  'sheets.notTaken.inLinkedFolder':
    '{path} staat in {folder}, een symbolische koppeling naar een map: de inbox volgt geen koppelingen. Het bestand blijft waar het is; zet de map zelf in de inbox.',
  'sheets.notTaken.linkedFolder':
    '{path} is een symbolische koppeling naar een map: de inbox volgt geen koppelingen, dus wordt niets daarin opgenomen. Zet de map zelf in de inbox.',
  'sheets.notTaken.attachmentLink':
    '{sheet}: {why} De bijlage blijft in de inbox, en haar rij wordt geweigerd.',
  'sheets.notTaken.outside':
    '{path} staat in de map van geen enkel kantoor en wordt dus niet geïmporteerd: met “connections” in het configuratiebestand wordt een lijst alleen opgenomen uit de submap van haar verbinding in de inbox: {folders}. Ze blijft waar ze is; verplaats ze (met haar bijlagen) naar een van die mappen.',
  'sheets.notTaken.format':
    '{name} is een rekenbladformaat dat de importer niet leest (het bestand blijft waar het is): sla het op als .xlsx of als CSV (UTF-8) en zet dat bestand in de inbox.',
  'sheets.notTaken.mapping':
    '{path} wordt pas opgenomen als de mapping bruikbaar is: {reason} De lijst blijft in de inbox en wordt opgenomen zodra de mapping verbeterd is.',
  'sheets.describe.xlsx': 'Excel-werkmap, blad “{worksheet}”',
  'sheets.describe.text': '{format}, {encoding}',
  'sheets.describe.csv': 'CSV, gescheiden door {delimiter}, {encoding}',
  'sheets.describe.tab': 'tab',
};
