import type { rows as english } from '../en/rows.js';
import type { Translation } from '../translation.js';

// French puts a narrow no-break space (U+202F) before : ; ? ! and inside « ».
export const rows: Translation<typeof english> = {
  'rows.line': 'ligne {line}',

  'rows.required.property_type':
    'Il manque « {column} » : indiquez le type de bien, p. ex. « Rijwoning / Duplex »{hint}.',
  'rows.required.address1': 'Il manque « {column} » : indiquez la rue du bien{hint}.',
  'rows.required.address2':
    'Il manque « {column} » : indiquez le numéro (et la boîte) du bien{hint}.',
  'rows.required.city': 'Il manque « {column} » : indiquez la commune du bien{hint}.',
  'rows.required.postal_code': 'Il manque « {column} » : indiquez le code postal du bien{hint}.',
  'rows.required.contact_name':
    'Il manque « {column} » : indiquez le nom de la personne de contact{hint}.',
  'rows.required.contact_language':
    'Il manque « {column} » : indiquez la langue de la personne de contact (nl, en ou fr){hint}.',
  'rows.required.invoice_to':
    'Il manque « {column} » : indiquez qui reçoit la facture : tenant (la personne de contact), salesman (vous) ou other (quelqu’un d’autre){hint}.',
  'rows.required.is_contact_owner':
    'Il manque « {column} » : indiquez qui est le propriétaire : contact (la personne de contact), yes (vous) ou other (quelqu’un d’autre){hint}.',
  'rows.required.order_products':
    'Il manque « {column} » : indiquez les produits à commander, p. ex. EPC|ELEC-1.1{hint}.',
  'rows.required.contact_email':
    'Il manque « {column} » : indiquez l’adresse e-mail de la personne de contact ; si elle n’en a pas, écrivez oui dans « {flag} ».',
  'rows.required.inv_mail':
    'Il manque « {column} » : indiquez l’adresse e-mail de facturation ; s’il n’y en a pas, écrivez oui dans « {flag} ».',
  'rows.hint.column':
    '. Si cette information se trouve déjà dans la colonne « {column} », {advice}',
  'rows.advice.add': 'ajoutez {entries} dans {target}',
  'rows.advice.addToColumns': 'ajoutez {entries} sous « columns » dans {target}',
  'rows.advice.besideSheet': 'un fichier mapping.json à côté de la liste',

  'rows.conditional.breaker_boxes':
    'Il manque « {column} » : {id} (« {product} ») est un contrôle électrique ; indiquez le nombre de tableaux électriques.',
  'rows.conditional.units':
    'Il manque « {column} » : {id} (« {product} ») est facturé par logement ; indiquez le nombre de logements.',
  'rows.conditional.floors':
    'Il manque « {column} » : {id} (« {product} ») est facturé par étage ; indiquez le nombre d’étages.',

  'rows.value.refused': '« {column} » {problem} (valeur : « {value} »).',
  'rows.value.refusedOrWord':
    '« {column} » {problem}, ou l’un des mots prévus pour cette colonne sous « values » dans {file} (valeur : « {value} »).',
  'rows.value.notText': 'doit être du texte',
  'rows.value.tooLong': 'ne peut pas dépasser {max} caractères',
  'rows.value.notWhole': 'doit être un nombre entier',
  'rows.value.atLeast': 'doit valoir au moins {min}',
  'rows.value.notFlag': 'doit être oui ou non (ou 1/0, true/false, yes/no, ja/nee)',
  'rows.value.oneOf': 'doit être l’une de ces valeurs : {allowed}',
  'rows.value.invoiceTo':
    'doit être l’une de ces valeurs : « tenant » (la personne de contact), « salesman » (vous, votre bureau), « other » (quelqu’un d’autre)',
  'rows.value.isContactOwner':
    'doit être l’une de ces valeurs : « contact » (la personne de contact), « yes » (vous, votre bureau), « other » (quelqu’un d’autre)',
  'rows.value.notFiles':
    'doit contenir des chemins de fichiers séparés par | (ou une liste JSON de chemins)',
  'rows.email.invalid':
    '« {column} » ne contient pas d’adresse e-mail valide (valeur : « {value} ») : écrivez-la sous la forme nom@domaine.be.',

  'rows.products.none':
    '« {column} » ne contient aucun produit : indiquez-en au moins un, p. ex. EPC.',
  'rows.products.unknown':
    '« {column} » contient un produit inconnu, « {id} » (produits connus : {known}).',
  'rows.products.quantity':
    'La quantité indiquée pour {id} dans « {column} » {problem} (valeur : « {value} »).',
  'rows.products.notProduct':
    '« {column} » contient « {value} », qui n’est pas un produit : écrivez CODE ou CODE:QUANTITÉ, p. ex. EPC.',

  'rows.reference.taken':
    'La référence « {reference} » (« {column} ») est déjà utilisée à la ligne {row} : chaque ligne doit avoir sa propre référence.',
  'rows.extraCells':
    'Cette ligne compte {count, plural, one {# cellule} other {# cellules}} de plus que l’en-tête ne compte de colonnes : donnez un nom à {count, plural, one {cette colonne} other {ces colonnes}} dans l’en-tête, ou videz {count, plural, one {la cellule} other {les cellules}}.',

  'rows.attachment.problem': '« {column} » : {problem}',
  'rows.attachment.missing':
    '« {path} » est introuvable à côté de la liste : indiquez le chemin du document à partir du dossier de la liste, et déposez le document en même temps que la liste.',
  'rows.attachment.unreadable': '« {path} » ne peut pas être lu ({code}).',
  'rows.attachment.folder': '« {path} » est un dossier, pas un document.',
  'rows.attachment.notFile': '« {path} » n’est pas un fichier ordinaire, donc pas un document.',
  'rows.attachment.tooLarge':
    '« {path} » fait {size} Mo ({bytes} octets), soit plus que la limite de {limit} Mo ({limitBytes} octets) par pièce jointe (MAX_ATTACHMENT_MB).',
  'rows.attachment.invalidPath': '« {path} » n’est pas un chemin valide.',
  'rows.attachment.absolute':
    '« {path} » est un chemin absolu : indiquez le chemin à partir du dossier de la liste.',
  'rows.attachment.outside':
    '« {path} » mène hors du dossier de la liste : les pièces jointes doivent se trouver dans ce dossier ou dans l’un de ses sous-dossiers.',
  'rows.attachment.link':
    '« {path} » est un lien symbolique : les pièces jointes ne sont jamais lues via un lien ; mettez le fichier lui-même à cet endroit.',
  'rows.attachment.linkOnTheWay':
    '« {path} » passe par {link}, un lien symbolique : les pièces jointes ne sont jamais lues via un lien ; mettez le dossier lui-même à cet endroit.',
  'rows.attachment.hardLink':
    '« {path} » est un lien physique (le même fichier porte {names} noms sur le disque, peut-être hors du dossier de la liste, alors que les pièces jointes ne sont lues que dans ce dossier) : copiez le fichier dans le dossier au lieu de créer un lien.',
  'rows.mapping.flag': '--mapping {file}',
  'rows.mapping.beside': '{file} (à côté de la liste)',
  'rows.mapping.connection': '{file} (le fichier de correspondance de la connexion)',
  'rows.mapping.config': '{file} (le paramètre « mapping » du fichier de configuration)',
  'rows.warning.mappingUsed': 'Liste lue avec le fichier de correspondance {mapping}.',
  'rows.warning.mappingUsedFor': 'Liste lue avec le fichier de correspondance {mapping} : {what}.',
  'rows.warning.mappedColumns': 'colonnes {columns}',
  'rows.warning.more': '{count} de plus',
  'rows.warning.noMappedColumn': 'aucun de ses noms de colonnes ne figure dans cette liste',
  'rows.warning.valueWords': 'des mots pour les valeurs de {fields}',
  'rows.warning.both': '{first} ; {second}',
  'rows.warning.unknown':
    '{count, plural, one {Colonne ignorée, car elle ne correspond à aucun champ de commande : {list}.} other {Colonnes ignorées, car elles ne correspondent à aucun champ de commande : {list}.}}',
  'rows.warning.mapIt':
    '{unknown} Si une colonne contient une donnée de la commande sous un autre nom, indiquez la correspondance dans {target}, p. ex. {example}.',
  'rows.warning.didYouMean': '{unknown} Vouliez-vous dire {guesses} ? {advice}.',
  'rows.warning.nameless':
    '{count, plural, one {# ligne a} other {# lignes ont}} des valeurs dans une colonne sans nom (colonne {letters}) ; elles sont ignorées : donnez un nom à la colonne dans l’en-tête.',
  'rows.outcome.refused': 'L’API a refusé la commande : {reason}',
  'rows.outcome.noMoreRetries': 'Toutes les tentatives ont échoué : {reason}',
  'rows.outcome.duplicate':
    'Déjà importée comme commande {orderId} (liste {sheetId}, ligne {row}).',
  'rows.outcome.earlierUnknown':
    'On ne sait pas si une importation précédente de cette ligne (liste {sheetId}, ligne {row}) a abouti : vérifiez si la commande existe avant d’importer à nouveau la ligne.',
  'rows.outcome.unknown':
    'La commande a été envoyée {sentAt, select, none {à une date inconnue} other {le {sentAt}}}, mais on ne sait pas si elle a été créée ({answer}). Vérifiez auprès de la société de contrôle (ou dans l’API) si elle existe avant d’importer à nouveau cette ligne ; sinon, elle risque d’être créée deux fois.',
  'rows.outcome.filesMissing':
    'La commande {orderId} existe, mais {count, plural, one {# pièce jointe n’a pas pu être ajoutée} other {# pièces jointes n’ont pas pu être ajoutées}} : {refused}. Redéposez le dossier failed/ du rapport dans le dossier inbox pour {count, plural, one {l’ajouter} other {les ajouter}} à la même commande.',
  'rows.outcome.resent':
    'Pièces jointes envoyées une seconde fois après une réponse incertaine ; elles figurent donc peut-être deux fois dans la commande : {files}.',
  'rows.outcome.notProcessed':
    'Non traitée : aucun résultat n’a été enregistré pour cette ligne (voir les avertissements).',
  'rows.outcome.sheetChanged':
    'Non importée : la liste a été modifiée pendant son importation (remplacée ou supprimée) ; ses lignes pas encore mises en file d’attente ont été refusées, pour qu’aucune commande ne soit créée à partir de deux versions de la liste. Relancez l’importation de la liste pour prendre en compte son nouveau contenu.',
  'rows.again.made':
    'Le contenu de cette liste a déjà été importé (liste {sheetId}) ; la commande {orderId} a alors été créée pour cette ligne.',
  'rows.again.done': 'Le contenu de cette liste a déjà été importé (liste {sheetId}).',
  'rows.again.review':
    'Le contenu de cette liste a déjà été importé (liste {sheetId}) ; on ne savait pas alors si la commande de cette ligne avait été créée (needs-review) : consultez d’abord le fichier needs-review.csv de cette importation.',
  'rows.again.failed':
    'Le contenu de cette liste a déjà été importé (liste {sheetId}) ; aucune commande n’a alors été créée pour cette ligne (en échec) : corrigez-la dans le dossier failed/ de cette importation.',
  'rows.again.partly':
    'Le contenu de cette liste a déjà été importé (liste {sheetId}) ; la commande {orderId} a alors été créée, mais sans toutes ses pièces jointes : redéposez le dossier failed/ de cette importation pour la compléter.',
  'rows.again.invalid':
    'Le contenu de cette liste a déjà été importé (liste {sheetId}) ; aucune commande n’a alors été créée pour cette ligne (non valable) : corrigez-la dans le dossier failed/ de cette importation.',
  'rows.again.unknown':
    'Le contenu de cette liste a déjà été importé (liste {sheetId}) ; aucune commande n’est connue pour cette ligne.',
  'rows.warning.changedSince':
    'La liste a été modifiée depuis son importation : ce rapport et le dossier failed/ portent sur la version importée (sha256 {sha}…), pas sur le fichier actuel.',
  'rows.warning.bundlesChanged':
    'La liste a été modifiée depuis son importation : failed/ et needs-review.csv n’ont pas été créés (report.csv reprend toutes les lignes).',
  'rows.warning.bundlesUnreadable':
    'La liste n’a plus pu être lue : failed/ et needs-review.csv n’ont pas été créés ({reason}).',
  'rows.warning.mappingNotWritten':
    'failed/mapping.json n’a pas été créé (une pièce jointe porte déjà ce nom) : placez vous-même le fichier de correspondance dans failed/ avant de redéposer le dossier.',
  'rows.warning.notCopied': 'Ligne {row} : pièce jointe non copiée dans failed/ : {reason}',
  'rows.warning.copyFailed':
    'Ligne {row} : « {path} » n’a pas pu être copié dans failed/ ({reason}).',
  'rows.outcome.notProcessedBecause': 'Non traitée : {reason}',
  'rows.outcome.gaveUp': 'Le traitement de la ligne a été abandonné : {reason}',
  'rows.outcome.gaveUpAfterSending':
    'Le traitement de la ligne a été abandonné ({reason}) après l’envoi de la commande{sentAt, select, none {} other { le {sentAt}}} : la commande a peut-être été créée, peut-être pas ; vérifiez-le auprès de la société de contrôle avant d’importer à nouveau cette ligne.',
  'rows.warning.stopped': 'Le traitement de la liste s’est arrêté après la ligne {row} : {reason}',
  'rows.clash':
    '« {first} » et « {second} » indiquent tous deux {field} : ne gardez que l’un des deux.',
  'rows.attachment.moved':
    '« {path} » passait par un lien symbolique, ou a été déplacé, au moment de son ouverture : il n’a pas été lu.',
  'rows.attachment.movedAway':
    '« {path} » passait par un lien symbolique, ou a été déplacé, au moment de son déplacement : il reste où il est.',
  'rows.outcome.stoppedBeforeRows':
    'le traitement s’est arrêté avant la lecture des lignes : {reason}',
  'rows.outcome.sheetJobGaveUp': 'le traitement de la liste a été abandonné : {reason}',
  'rows.outcome.noAnswerRecorded':
    'aucune réponse enregistrée : la tentative qui l’a envoyée s’est arrêtée ou n’a jamais reçu de réponse',
};
