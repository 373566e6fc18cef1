import type { sheets as english } from '../en/sheets.js';
import type { Translation } from '../translation.js';

// French puts a narrow no-break space (U+202F) before : ; ? ! and inside « ».
export const sheets: Translation<typeof english> = {
  'sheets.line': 'ligne {line}',
  'sheets.atLine': 'ligne {line} : {message}',
  'sheets.mappingUnusable': 'le fichier de correspondance ne peut pas être utilisé : {reason}',
  'sheets.empty':
    'la liste est vide : elle doit contenir une ligne d’en-tête et au moins une commande.',
  'sheets.utf16':
    'la liste est enregistrée en UTF-16 (« Texte Unicode ») ; enregistrez-la plutôt en « CSV UTF-8 » ou en « CSV (séparateur : point-virgule) ».',
  'sheets.binary':
    'ce fichier n’est pas une liste au format texte (il contient des données binaires ; un classeur Excel doit porter l’extension .xlsx).',
  'sheets.strayBytes':
    'la liste est en UTF-8, sauf quelques octets {where} qui ne le sont pas (texte collé depuis un autre encodage, ou fichier endommagé) : corrigez ces caractères et enregistrez la liste en UTF-8 (dans Excel : « CSV UTF-8 »).',
  'sheets.strayBytes.line': 'à la ligne {line}',
  'sheets.strayBytes.lines': 'aux lignes {lines} et {last}',
  'sheets.strayBytes.more':
    'aux lignes {lines} et {more, plural, one {# autre ligne} other {# autres lignes}}',
  'sheets.format.refused':
    'ce fichier est {kind, select, xls {un classeur Excel à l’ancien format (.xls)} xlsb {un classeur Excel binaire (.xlsb)} ods {une feuille de calcul OpenDocument (.ods)} other {une feuille de calcul Numbers}}, un format qu’order-importer ne lit pas : enregistrez-le en .xlsx ou en CSV.',
  'sheets.format.unknown':
    '« {extension} » n’est pas un format de liste : utilisez .csv, .xlsx, .json, .ndjson ou .jsonl.',
  'sheets.unreadableFormat':
    'la liste ne peut pas être lue dans le format qu’indique son extension.',
  'sheets.changedBeforeRead':
    'la liste a été modifiée après sa mise en file d’attente : importez-la à nouveau pour que son nouveau contenu soit pris en compte.',
  'sheets.mappingFile':
    '{file} est un fichier de correspondance (noms de colonnes et mots pour les listes placées à côté), pas une liste de commandes : il sert à lire ces listes et n’est jamais importé lui-même.',
  'sheets.header.noField':
    'la ligne d’en-tête ne contient aucun nom de champ de commande ({shown}){mapped, select, yes { (le fichier de correspondance {mapping} n’en associe aucun)} other {}} : la ligne au-dessus des commandes doit donner le nom des colonnes, p. ex. address1, city, order_products ; vous pouvez aussi faire correspondre vos propres noms de colonnes dans {target}, p. ex. {example}.',
  'sheets.header.noFieldHinted':
    'la ligne d’en-tête ne contient aucun nom de champ de commande ({shown}){mapped, select, yes { (le fichier de correspondance {mapping} n’en associe aucun)} other {}} : la ligne au-dessus des commandes doit donner le nom des colonnes, p. ex. address1, city, order_products. Pour utiliser vos propres noms de colonnes, {advice}.',
  'sheets.header.cellErrors': 'la ligne d’en-tête contient une ou plusieurs erreurs : {errors}.',
  'sheets.mapping.source':
    '{kind, select, flag {--mapping {file}} beside {{file} (à côté de la liste)} connection {{file} (le fichier de correspondance de la connexion)} other {{file} (le paramètre « mapping » du fichier de configuration)}}',
  'sheets.csv.noHeader':
    'la liste n’a pas de ligne d’en-tête : elle ne contient que des lignes vides.',
  'sheets.csv.emptyHeader':
    'la ligne d’en-tête est vide : la première ligne doit donner le nom des colonnes.',
  'sheets.csv.quoteNotClosed':
    'une cellule entre guillemets n’est jamais refermée : un guillemet `"` ouvre une cellule qui s’étend jusqu’à la fin du fichier.',
  'sheets.csv.recordTooLarge':
    'une ligne dépasse 1 Mo : sans doute un guillemet `"` qui ouvre une cellule sans jamais la refermer.',
  'sheets.csv.textAfterQuote':
    'une cellule entre guillemets contient du texte après son guillemet fermant ; dans une telle cellule, écrivez un guillemet sous la forme "".',
  'sheets.csv.quoteInCell': 'un guillemet s’ouvre au milieu d’une cellule.',
  'sheets.csv.unreadable': 'le CSV ne peut pas être lu ({detail}).',
  'sheets.json.emptyArray': 'le tableau JSON est vide : il ne contient aucune commande.',
  'sheets.json.lineTooLarge': 'une ligne dépasse 1 Mo : une seule commande par ligne est attendue.',
  'sheets.json.allBlank': 'la liste ne contient aucune commande : toutes les lignes sont vides.',
  'sheets.json.broken': 'le JSON est erroné dans la commande {order} : {detail}',
  'sheets.json.orderTooLarge': 'une commande du tableau JSON dépasse 1 Mo.',
  'sheets.json.empty': 'la liste est vide.',
  'sheets.json.notClosed':
    'le tableau JSON n’est pas fermé : le fichier se termine avant le `]` final.',
  'sheets.json.notArray':
    'une liste .json doit être un tableau JSON de commandes : [ {example} ] (un objet par ligne, c’est le format .ndjson).',
  'sheets.json.afterComma':
    'caractère « {character} » inattendu après une virgule dans le tableau JSON.',
  'sheets.json.textAfterEnd': 'il reste du texte après la fin du tableau JSON.',
  'sheets.workbook.saveAgain':
    'ouvrez-le dans Excel et enregistrez-le à nouveau en .xlsx, ou enregistrez-le en CSV.',
  'sheets.workbook.fix': '{problem} : {fix}',
  'sheets.workbook.notWorkbook': 'ce fichier n’est pas un classeur Excel (.xlsx)',
  'sheets.workbook.ods':
    'c’est un fichier OpenDocument (.ods) : enregistrez-le en .xlsx ou en CSV.',
  'sheets.workbook.zipWithoutBook': 'c’est un fichier zip qui ne contient aucun classeur',
  'sheets.workbook.emptyFile': 'le classeur est vide (0 octet).',
  'sheets.workbook.passwordOrXls':
    'le classeur est protégé par un mot de passe (ou c’est un ancien fichier .xls renommé) : retirez le mot de passe dans Excel (Fichier > Informations > Protéger le classeur) et enregistrez-le en .xlsx, ou enregistrez-le en CSV.',
  'sheets.workbook.encrypted':
    'le classeur est chiffré (protégé par un mot de passe) : retirez son mot de passe dans Excel et enregistrez-le en .xlsx, ou enregistrez-le en CSV.',
  'sheets.workbook.tooManyParts':
    'le classeur contient {count} parties, bien trop pour un classeur',
  'sheets.workbook.twoParts':
    'le classeur a deux parties nommées {part}, et on ne peut pas savoir laquelle Excel affiche',
  'sheets.workbook.noPart': 'il manque la partie {part} dans le classeur',
  'sheets.workbook.packedOddly': 'le classeur est compressé d’une manière qu’Excel n’utilise pas',
  'sheets.workbook.damaged': 'le classeur est endommagé',
  'sheets.workbook.cutShort': 'le classeur est endommagé ou incomplet (copie interrompue ?)',
  'sheets.workbook.partNotUnpacked':
    'le classeur est endommagé (sa partie {part} ne peut pas être décompressée)',
  'sheets.workbook.sheetLeadsNowhere':
    'le classeur est endommagé (sa feuille « {sheet} » ne renvoie à aucune partie)',
  'sheets.workbook.worksheetGone':
    'le classeur est endommagé (sa feuille de calcul « {sheet} » est manquante)',
  'sheets.workbook.partNotXml':
    'le classeur est endommagé (sa partie {part} n’est pas du XML bien formé : {detail})',
  'sheets.workbook.worksheetNotXml':
    'le classeur est endommagé (sa feuille de calcul ou ses textes ne sont pas du XML bien formé : {detail})',
  'sheets.workbook.tooBig':
    '{part} du classeur fait {megabytes} Mo une fois décompressée, au-delà des {limit} Mo qu’order-importer peut lire : enregistrez plutôt le classeur en CSV.',
  'sheets.workbook.part.worksheet': 'la feuille « {sheet} »',
  'sheets.workbook.part.named': 'la partie {part}',
  'sheets.workbook.part.file': 'la partie {part}',
  'sheets.workbook.stoppedEarly': 'la lecture du classeur s’est arrêtée trop tôt.',
  'sheets.workbook.memory':
    'la lecture du classeur demande plus de {megabytes} Mo de mémoire (une très grande table de textes) : enregistrez-le plutôt en CSV.',
  'sheets.workbook.unreadable':
    'le classeur ne peut pas être lu ({detail}) : ouvrez-le dans Excel et enregistrez-le à nouveau en .xlsx, ou enregistrez-le en CSV.',
  'sheets.workbook.noWorksheet':
    'le classeur ne contient aucune feuille de calcul (seulement des graphiques, ou sa liste de feuilles est vide)',
  'sheets.workbook.worksheetNotFound':
    'le classeur n’a pas de feuille « {wanted} » (indiquée sous « worksheet » dans le fichier de correspondance) ; ses feuilles sont : {listed}.',
  'sheets.workbook.rowOutOfOrder':
    'la ligne {row} de la feuille n’est pas à sa place ou dépasse la dernière ligne d’Excel : le classeur est endommagé ; ouvrez-le dans Excel et enregistrez-le à nouveau en .xlsx, ou enregistrez-le en CSV.',
  'sheets.workbook.cellBeyond':
    'la feuille a une cellule « {cell} » au-delà de la dernière colonne d’Excel : le classeur est endommagé ; ouvrez-le dans Excel et enregistrez-le à nouveau en .xlsx, ou enregistrez-le en CSV.',
  'sheets.failed.cannotBeRead':
    'La liste {name} ne peut pas être lue ; aucune commande n’en a donc été créée :',
  'sheets.failed.readWith': 'La liste a été lue avec le fichier de correspondance {mapping}.',
  'sheets.failed.fix': 'Corrigez la liste et déposez-la à nouveau dans le dossier inbox.',
  'sheets.failed.notTaken': 'ne peut pas être lu et a donc été déplacé vers {folder} : {reason}',
  'sheets.notTaken.linkedSheet':
    '{path} est un lien symbolique : order-importer ne prend en charge aucune liste déposée sous forme de lien et ne lit rien via un lien. Le lien reste où il est ; déposez le fichier lui-même dans le dossier inbox.',
  'sheets.notTaken.inLinkedFolder':
    '{path} se trouve dans {folder}, un lien symbolique vers un dossier : order-importer ne suit pas les liens. Le fichier reste où il est ; déposez le dossier lui-même dans le dossier inbox.',
  'sheets.notTaken.linkedFolder':
    '{path} est un lien symbolique vers un dossier : order-importer ne suit pas les liens, donc rien de ce qu’il contient n’est pris en charge. Déposez le dossier lui-même dans le dossier inbox.',
  'sheets.notTaken.attachmentLink':
    '{sheet} : {why} La pièce jointe reste dans le dossier inbox, et la ligne qui la mentionne est refusée.',
  'sheets.notTaken.outside':
    '{path} ne se trouve dans le dossier d’aucun bureau et n’est donc pas importée : lorsque le fichier de configuration contient « connections », une liste n’est prise en charge que dans le sous-dossier de sa connexion, dans le dossier inbox : {folders}. Elle reste où elle est ; déplacez-la (avec ses documents) dans l’un de ces sous-dossiers.',
  'sheets.notTaken.format':
    '{name} est dans un format de tableur qu’order-importer ne lit pas (le fichier reste où il est) : enregistrez-le en .xlsx ou en CSV (UTF-8) et déposez plutôt ce nouveau fichier.',
  'sheets.notTaken.mapping':
    '{path} ne sera pris en charge que lorsque son fichier de correspondance sera utilisable : {reason} La liste reste dans le dossier inbox et sera prise en charge dès que le fichier de correspondance sera corrigé.',
  'sheets.describe.xlsx': 'classeur Excel, feuille « {worksheet} »',
  'sheets.describe.text': '{format}, {encoding}',
  'sheets.describe.csv': 'CSV, séparateur {delimiter}, {encoding}',
  'sheets.describe.tab': 'tabulation',
};
