import type { sheets as english } from '../en/sheets.js';
import type { Translation } from '../translation.js';

export const sheets: Translation<typeof english> = {
  'sheets.line': 'ligne {line}',
  'sheets.atLine': 'ligne {line} : {message}',
  'sheets.mappingUnusable': 'le mapping ne peut pas être utilisé : {reason}',
  'sheets.empty': 'la liste est vide : il lui faut une ligne d’en-tête et au moins une commande.',
  'sheets.utf16':
    'la liste est enregistrée en UTF-16 (« Texte Unicode ») ; enregistrez-la plutôt en « CSV UTF-8 » ou en « CSV (séparateur : point-virgule) ».',
  'sheets.binary':
    'ce n’est pas une liste en texte (elle contient des données binaires ; un classeur Excel doit porter l’extension .xlsx).',
  'sheets.strayBytes':
    'la liste est en UTF-8, sauf des octets {where} qui ne sont pas en UTF-8 (du texte collé depuis un autre encodage, ou un fichier endommagé) : corrigez ces caractères et enregistrez la liste en UTF-8 (dans Excel : « CSV UTF-8 »).',
  'sheets.strayBytes.line': 'à la ligne {line}',
  'sheets.strayBytes.lines': 'aux lignes {lines} et {last}',
  'sheets.strayBytes.more':
    'aux lignes {lines} et {more, plural, one {# autre ligne} other {# autres lignes}}',
  'sheets.format.refused':
    'c’est {kind, select, xls {un classeur Excel à l’ancien format (.xls)} xlsb {un classeur Excel binaire (.xlsb)} ods {une feuille de calcul OpenDocument (.ods)} other {une feuille de calcul Numbers}}, que l’importateur ne lit pas : enregistrez le fichier en .xlsx ou en CSV.',
  'sheets.format.unknown':
    '« {extension} » n’est pas un format de liste : utilisez .csv, .xlsx, .json, .ndjson ou .jsonl.',
  'sheets.unreadableFormat': 'la liste ne peut pas être lue dans le format qu’indique son nom.',
  'sheets.changedBeforeRead':
    'la liste a été modifiée après avoir été mise en attente d’import : importez-la à nouveau pour lire son nouveau contenu.',
  'sheets.mappingFile':
    '{file} est un mapping (des noms de colonnes et des mots pour les listes qui se trouvent à côté), pas une liste de commandes : il est lu pour ces listes, jamais importé lui-même.',
  'sheets.header.noField':
    'la ligne d’en-tête ne nomme aucun champ de commande ({shown}){mapped, select, yes { (le mapping {mapping} n’en fait correspondre aucun)} other {}} : la ligne au-dessus des commandes doit nommer les colonnes, p. ex. address1, city, order_products ; ou faites correspondre vos propres noms de colonnes dans {target}, comme {example}.',
  'sheets.header.noFieldHinted':
    'la ligne d’en-tête ne nomme aucun champ de commande ({shown}){mapped, select, yes { (le mapping {mapping} n’en fait correspondre aucun)} other {}} : la ligne au-dessus des commandes doit nommer les colonnes, p. ex. address1, city, order_products. Pour faire correspondre vos propres noms de colonnes : {advice}.',
  'sheets.header.cellErrors': 'la ligne d’en-tête contient {errors}.',
  'sheets.mapping.source':
    '{kind, select, flag {--mapping {file}} beside {{file} (à côté de la liste)} connection {{file} (le mapping de la connexion)} other {{file} (le « mapping » du fichier de configuration)}}',
  'sheets.csv.noHeader':
    'la liste n’a pas de ligne d’en-tête : elle ne contient que des lignes vides.',
  'sheets.csv.emptyHeader':
    'la ligne d’en-tête est vide : la première ligne doit nommer les colonnes.',
  'sheets.csv.quoteNotClosed':
    'une cellule entre guillemets n’est jamais fermée : un `"` ouvre une cellule qui court jusqu’à la fin du fichier.',
  'sheets.csv.recordTooLarge':
    'une ligne dépasse 1 Mo : sans doute un `"` qui ouvre une cellule et n’est jamais refermé.',
  'sheets.csv.textAfterQuote':
    'une cellule entre guillemets contient du texte après son guillemet fermant ; dans une telle cellule, écrivez un guillemet sous la forme "".',
  'sheets.csv.quoteInCell': 'un guillemet s’ouvre au milieu d’une cellule.',
  'sheets.csv.unreadable': 'le CSV ne peut pas être lu ({detail}).',
  'sheets.json.emptyArray': 'le tableau JSON est vide : il ne contient aucune commande.',
  'sheets.json.lineTooLarge': 'une ligne dépasse 1 Mo : une seule commande par ligne est attendue.',
  'sheets.json.allBlank': 'la liste ne contient aucune commande : toutes les lignes sont vides.',
  'sheets.json.broken': 'le JSON est erroné dans la commande {order} : {detail}',
  'sheets.json.orderTooLarge': 'une commande du tableau JSON dépasse 1 Mo.',
  'sheets.json.empty': 'la liste est vide.',
  'sheets.json.notClosed':
    'le tableau JSON n’est pas fermé : le fichier se termine avant le `]` final.',
  'sheets.json.notArray':
    'une liste .json doit être un tableau JSON de commandes : [ {example} ] (un objet par ligne, c’est le format .ndjson).',
  'sheets.json.afterComma': '« {character} » inattendu après une virgule dans le tableau JSON.',
  'sheets.json.textAfterEnd': 'il reste du texte après la fin du tableau JSON.',
  'sheets.workbook.saveAgain':
    'ouvrez-le dans Excel et enregistrez-le à nouveau en .xlsx, ou enregistrez-le en CSV.',
  'sheets.workbook.fix': '{problem} : {fix}',
  'sheets.workbook.notWorkbook': 'ce fichier n’est pas un classeur Excel (.xlsx)',
  'sheets.workbook.ods':
    'c’est un fichier OpenDocument (.ods) : enregistrez-le en .xlsx ou en CSV.',
  'sheets.workbook.zipWithoutBook': 'c’est un fichier zip qui ne contient aucun classeur',
  'sheets.workbook.emptyFile': 'le classeur est vide (0 octet).',
  'sheets.workbook.passwordOrXls':
    'le classeur est protégé par un mot de passe (ou c’est un ancien fichier .xls renommé) : retirez le mot de passe dans Excel (Fichier > Informations > Protéger le classeur) et enregistrez-le en .xlsx, ou enregistrez-le en CSV.',
  'sheets.workbook.encrypted':
    'le classeur est chiffré (protégé par un mot de passe) : retirez son mot de passe dans Excel et enregistrez-le en .xlsx, ou enregistrez-le en CSV.',
  'sheets.workbook.tooManyParts':
    'le classeur contient {count} parties, beaucoup trop pour un classeur',
  'sheets.workbook.twoParts':
    'le classeur a deux parties nommées {part}, et on ne peut pas savoir laquelle Excel affiche',
  'sheets.workbook.noPart': 'il manque au classeur la partie {part}',
  'sheets.workbook.packedOddly': 'le classeur est compressé d’une manière qu’Excel n’utilise pas',
  'sheets.workbook.damaged': 'le classeur est endommagé',
  'sheets.workbook.cutShort':
    'le classeur est endommagé ou incomplet (interrompu pendant la copie ?)',
  'sheets.workbook.partNotUnpacked':
    'le classeur est endommagé (sa partie {part} ne peut pas être décompressée)',
  'sheets.workbook.sheetLeadsNowhere':
    'le classeur est endommagé (sa feuille « {sheet} » ne mène à aucune partie)',
  'sheets.workbook.worksheetGone':
    'le classeur est endommagé (sa feuille de calcul « {sheet} » est manquante)',
  'sheets.workbook.partNotXml':
    'le classeur est endommagé (sa partie {part} n’est pas du XML bien formé : {detail})',
  'sheets.workbook.worksheetNotXml':
    'le classeur est endommagé (sa feuille de calcul ou ses textes ne sont pas du XML bien formé : {detail})',
  'sheets.workbook.tooBig':
    '{part} du classeur fait {megabytes} Mo une fois décompressée, plus que les {limit} Mo que lit l’importateur : enregistrez le classeur en CSV.',
  'sheets.workbook.part.worksheet': 'la feuille « {sheet} »',
  'sheets.workbook.part.named': 'la partie {part}',
  'sheets.workbook.part.file': 'la partie {part}',
  'sheets.workbook.stoppedEarly': 'la lecture du classeur s’est arrêtée trop tôt.',
  'sheets.workbook.memory':
    'la lecture du classeur demande plus de {megabytes} Mo de mémoire (une très grande table de textes) : enregistrez-le plutôt en CSV.',
  'sheets.workbook.unreadable':
    'le classeur ne peut pas être lu ({detail}) : ouvrez-le dans Excel et enregistrez-le à nouveau en .xlsx, ou enregistrez-le en CSV.',
  'sheets.workbook.noWorksheet':
    'le classeur ne contient aucune feuille de calcul (seulement des graphiques, ou sa liste de feuilles est vide)',
  'sheets.workbook.worksheetNotFound':
    'le classeur n’a pas de feuille « {wanted} » (le « worksheet » du mapping) ; ses feuilles sont {listed}.',
  'sheets.workbook.rowOutOfOrder':
    'la ligne {row} de la feuille n’est pas à sa place ou dépasse la dernière ligne d’Excel : le classeur est endommagé ; ouvrez-le dans Excel et enregistrez-le à nouveau en .xlsx, ou enregistrez-le en CSV.',
  'sheets.workbook.cellBeyond':
    'la feuille a une cellule « {cell} » au-delà de la dernière colonne d’Excel : le classeur est endommagé ; ouvrez-le dans Excel et enregistrez-le à nouveau en .xlsx, ou enregistrez-le en CSV.',
  'sheets.failed.cannotBeRead':
    '{name} ne peut pas être lu ; aucune commande n’en a donc été créée :',
  'sheets.failed.readWith': 'La liste a été lue avec le mapping {mapping}.',
  'sheets.failed.fix': 'Corrigez la liste et déposez-la à nouveau dans le dossier inbox.',
  'sheets.failed.notTaken': 'ne peut pas être lu et a donc été déplacé vers {folder} : {reason}',
  'sheets.notTaken.linkedSheet':
    '{path} est un lien symbolique : le dossier inbox ne prend aucune liste liée et ne lit rien à travers un lien. Le fichier reste où il est ; déposez le fichier lui-même dans le dossier inbox.',
  'sheets.notTaken.inLinkedFolder':
    '{path} se trouve dans {folder}, un lien symbolique vers un dossier : le dossier inbox ne suit pas les liens. Le fichier reste où il est ; déposez le dossier lui-même dans le dossier inbox.',
  'sheets.notTaken.linkedFolder':
    '{path} est un lien symbolique vers un dossier : le dossier inbox ne suit pas les liens, rien de ce qu’il contient n’est donc pris. Déposez le dossier lui-même dans le dossier inbox.',
  'sheets.notTaken.attachmentLink':
    '{sheet} : {why} La pièce jointe reste dans le dossier inbox, et sa ligne est refusée.',
  'sheets.notTaken.outside':
    '{path} ne se trouve dans le dossier d’aucun bureau et n’est donc pas importé : avec « connections » dans le fichier de configuration, une liste n’est prise que dans le sous-dossier de sa connexion dans le dossier inbox : {folders}. Elle reste où elle est ; déplacez-la (avec ses documents) dans l’un de ces dossiers.',
  'sheets.notTaken.format':
    '{name} est dans un format de feuille de calcul que l’importateur ne lit pas (le fichier reste où il est) : enregistrez-le en .xlsx ou en CSV (UTF-8) et déposez ce fichier-là.',
  'sheets.notTaken.mapping':
    '{path} ne sera pris que lorsque son mapping pourra être utilisé : {reason} La liste reste dans le dossier inbox et sera prise dès que le mapping sera corrigé.',
};
