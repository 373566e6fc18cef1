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
    'Il manque « {column} » : indiquez les contrôles commandés, p. ex. EPC|ELEC-1.1{hint}.',
  'rows.required.contact_email':
    'Il manque « {column} » : indiquez l’adresse e-mail de la personne de contact ; si elle n’en a pas, mettez « {flag} » à oui.',
  'rows.required.inv_mail':
    'Il manque « {column} » : indiquez l’adresse e-mail de facturation ; s’il n’y en a pas, mettez « {flag} » à oui.',
  'rows.hint.column': ', si la colonne « {column} » contient cette donnée, {advice}',
  'rows.advice.add': 'ajoutez {entries} à {target}',
  'rows.advice.addToColumns': 'ajoutez {entries} sous « columns » dans {target}',
  'rows.advice.besideSheet': 'un mapping.json à côté de la liste',

  'rows.conditional.breaker_boxes':
    'Il manque « {column} » : {id} (« {product} ») est un contrôle électrique ; indiquez le nombre de tableaux électriques.',
  'rows.conditional.units':
    'Il manque « {column} » : {id} (« {product} ») est facturé par unité de logement ; indiquez le nombre d’unités.',
  'rows.conditional.floors':
    'Il manque « {column} » : {id} (« {product} ») est facturé par étage ; indiquez le nombre d’étages.',

  'rows.value.refused': '« {column} » {problem} (valeur : « {value} »).',
  'rows.value.refusedOrWord':
    '« {column} » {problem}, ou l’un des mots prévus pour ce champ sous « values » dans {file} (valeur : « {value} »).',
  'rows.value.notText': 'doit être du texte',
  'rows.value.tooLong': 'ne peut dépasser {max} caractères',
  'rows.value.notWhole': 'doit être un nombre entier',
  'rows.value.atLeast': 'doit valoir au moins {min}',
  'rows.value.notFlag': 'doit être oui ou non (ou 1/0, true/false, yes/no, ja/nee)',
  'rows.value.oneOf': 'doit être l’une de ces valeurs : {allowed}',
  'rows.value.invoiceTo':
    'doit être l’une de ces valeurs : "tenant" (la personne de contact), "salesman" (vous, l’utilisateur de l’API), "other" (quelqu’un d’autre)',
  'rows.value.isContactOwner':
    'doit être l’une de ces valeurs : "contact" (la personne de contact), "yes" (vous, l’utilisateur de l’API), "other" (quelqu’un d’autre)',
  'rows.value.notFiles':
    'doit contenir des chemins de fichiers séparés par | (ou une liste JSON de chemins)',
  'rows.email.invalid':
    '« {column} » ne contient pas d’adresse e-mail valide (valeur : « {value} ») : écrivez-la sous la forme nom@domaine.be.',

  'rows.products.none':
    '« {column} » ne contient aucun produit : indiquez-en au moins un, p. ex. EPC.',
  'rows.products.unknown':
    '« {column} » contient un produit inconnu, « {id} » (produits connus : {known}).',
  'rows.products.quantity':
    'La quantité de {id} dans « {column} » {problem} (valeur : « {value} »).',
  'rows.products.notProduct':
    '« {column} » contient « {value} », qui n’est pas un produit : écrivez ID ou ID:QUANTITÉ.',

  'rows.reference.taken':
    'La valeur « {reference} » de « {column} » figure déjà à la ligne {row} : chaque ligne doit avoir sa propre référence.',
  'rows.extraCells':
    'Cette ligne a {count, plural, one {# cellule} other {# cellules}} de plus que l’en-tête n’a de colonnes : donnez un nom à {count, plural, one {cette colonne} other {ces colonnes}} dans l’en-tête, ou videz {count, plural, one {la cellule} other {les cellules}}.',

  'rows.attachment.problem': '« {column} » : {problem}',
  'rows.attachment.missing':
    '« {path} » ne se trouve pas à côté de la liste : une pièce jointe est nommée à partir du dossier de la liste, et déposée avec elle.',
  'rows.attachment.unreadable': '« {path} » ne peut pas être lu ({code}).',
  'rows.attachment.folder': '« {path} » est un dossier, pas un document.',
  'rows.attachment.notFile': '« {path} » n’est pas un fichier ordinaire, donc pas un document.',
  'rows.attachment.tooLarge':
    '« {path} » fait {size} Mo ({bytes} octets), au-delà de la limite de {limit} Mo ({limitBytes} octets) par pièce jointe (MAX_ATTACHMENT_MB).',
  'rows.attachment.invalidPath': '« {path} » n’est pas un chemin valide.',
  'rows.attachment.absolute':
    '« {path} » est un chemin absolu : donnez le chemin à partir du dossier de la liste.',
  'rows.attachment.outside':
    '« {path} » mène hors du dossier de la liste : les pièces jointes doivent se trouver dans ce dossier ou en dessous.',
  'rows.attachment.link':
    '« {path} » est un lien symbolique : les pièces jointes ne sont jamais lues à travers un lien ; placez-y le fichier lui-même.',
  'rows.attachment.linkOnTheWay':
    '« {path} » passe par {link}, un lien symbolique : les pièces jointes ne sont jamais lues à travers un lien ; placez-y le dossier lui-même.',
  'rows.attachment.hardLink':
    '« {path} » est un lien physique (le même fichier porte {names} noms sur le disque, peut-être hors du dossier de la liste, et les pièces jointes ne sont lues qu’à l’intérieur) : copiez le fichier dans le dossier au lieu de le lier.',
  'rows.mapping.flag': '--mapping {file}',
  'rows.mapping.beside': '{file} (à côté de la liste)',
  'rows.mapping.connection': '{file} (le mapping de la connexion)',
  'rows.mapping.config': '{file} (le « mapping » du fichier de configuration)',
  'rows.warning.mappingUsed': 'Lue avec le mapping {mapping}.',
  'rows.warning.mappingUsedFor': 'Lue avec le mapping {mapping} : {what}.',
  'rows.warning.mappedColumns': 'colonnes {columns}',
  'rows.warning.more': '{count} de plus',
  'rows.warning.noMappedColumn': 'aucun de ses noms de colonne ne figure dans cette liste',
  'rows.warning.valueWords': 'des mots pour les valeurs de {fields}',
  'rows.warning.both': '{first} ; {second}',
  'rows.warning.unknown':
    '{count, plural, one {Colonne inconnue ignorée : {list} : ce n’est pas un champ de commande.} other {Colonnes inconnues ignorées : {list} : ce ne sont pas des champs de commande.}}',
  'rows.warning.mapIt':
    '{unknown} Si l’une d’elles contient un champ sous un autre nom, associez-la dans {target}, comme {example}.',
  'rows.warning.didYouMean': '{unknown} Vouliez-vous dire {guesses} ? {advice}.',
  'rows.warning.nameless':
    '{count, plural, one {# ligne a} other {# lignes ont}} des valeurs dans une colonne sans nom (colonne {letters}) ; elles sont ignorées : donnez un nom à la colonne dans l’en-tête.',
  'rows.outcome.refused': 'L’API a refusé la commande : {reason}',
  'rows.outcome.noMoreRetries': 'Plus aucune nouvelle tentative : {reason}',
  'rows.outcome.duplicate':
    'Déjà importée comme commande {orderId} (liste {sheetId}, ligne {row}).',
  'rows.outcome.earlierUnknown':
    'Une importation précédente de cette ligne (liste {sheetId}, ligne {row}) a une issue inconnue : vérifiez si cette commande existe avant d’importer à nouveau la ligne.',
  'rows.outcome.unknown':
    'La commande a été envoyée le {sentAt}, mais son issue est inconnue ({answer}). Elle existe peut-être : cherchez-la auprès de la société de contrôle (ou dans l’API) avant d’importer à nouveau cette ligne ; l’importer à l’aveugle pourrait la créer deux fois.',
  'rows.outcome.filesMissing':
    'La commande {orderId} existe, mais {count, plural, one {# pièce jointe n’a pas pu être ajoutée} other {# pièces jointes n’ont pas pu être ajoutées}} : {refused}. Redéposez la ligne depuis failed/ pour les ajouter à la même commande.',
  'rows.outcome.resent':
    'Fichiers renvoyés après une réponse peu claire, donc peut-être ajoutés deux fois : {files}.',
  'rows.outcome.notProcessed':
    'Non traitée : aucun résultat n’a été enregistré pour cette ligne (voir les avertissements).',
  'rows.outcome.sheetChanged':
    'Non importée : la liste a changé pendant son importation (elle a été écrasée ou supprimée), et ses lignes pas encore en file d’attente ont été refusées pour qu’aucune commande ne vienne de deux versions de la liste. Remettez la liste en file d’attente pour importer son nouveau contenu.',
  'rows.again.made':
    'Le contenu de cette liste a déjà été importé (liste {sheetId}) ; la commande {orderId} a alors été créée pour cette ligne.',
  'rows.again.done': 'Le contenu de cette liste a déjà été importé (liste {sheetId}).',
  'rows.again.review':
    'Le contenu de cette liste a déjà été importé (liste {sheetId}) ; l’issue de cette ligne y était inconnue (needs-review) : consultez d’abord le needs-review.csv de cette importation.',
  'rows.again.failed':
    'Le contenu de cette liste a déjà été importé (liste {sheetId}) ; aucune commande n’a alors été créée pour cette ligne (elle a échoué) : corrigez-la depuis le dossier failed/ de cette importation.',
  'rows.again.partly':
    'Le contenu de cette liste a déjà été importé (liste {sheetId}) ; la commande {orderId} a alors été créée, mais sans toutes ses pièces jointes : redéposez le dossier failed/ de cette importation pour la compléter.',
  'rows.again.invalid':
    'Le contenu de cette liste a déjà été importé (liste {sheetId}) ; aucune commande n’a alors été créée pour cette ligne (elle n’était pas valide) : corrigez-la depuis le dossier failed/ de cette importation.',
  'rows.again.unknown':
    'Le contenu de cette liste a déjà été importé (liste {sheetId}) ; aucune commande connue n’a été créée pour cette ligne.',
  'rows.warning.changedSince':
    'La liste a changé depuis son importation : ce rapport et failed/ portent sur la version importée (sha256 {sha}…), pas sur le fichier tel qu’il est maintenant.',
  'rows.warning.bundlesChanged':
    'La liste a changé depuis son importation : failed/ et needs-review.csv n’ont pas été écrits (report.csv reprend chaque ligne).',
  'rows.warning.bundlesUnreadable':
    'La liste ne pouvait plus être lue : failed/ et needs-review.csv n’ont pas été écrits ({reason}).',
  'rows.warning.mappingNotWritten':
    'failed/mapping.json n’a pas été écrit (une pièce jointe y porte ce nom) : placez le mapping dans failed/ avant de redéposer le dossier.',
  'rows.warning.notCopied': 'Ligne {row} : pièce jointe non copiée dans failed/ : {reason}',
  'rows.warning.copyFailed':
    'Ligne {row} : « {path} » n’a pas pu être copié dans failed/ ({reason}).',
  'rows.outcome.notProcessedBecause': 'Non traitée : {reason}',
  'rows.outcome.gaveUp': 'Le traitement de la ligne a été abandonné : {reason}',
  'rows.outcome.gaveUpAfterSending':
    'Le traitement de la ligne a été abandonné ({reason}) après l’envoi de la commande{sentAt, select, none {} other { le {sentAt}}} : la commande existe peut-être, peut-être pas.',
  'rows.warning.stopped': 'Le traitement de la liste s’est arrêté après la ligne {row} : {reason}',
  'rows.clash': '« {first} » et « {second} » donnent tous deux {field} : n’en gardez qu’un.',
  'rows.attachment.moved':
    '« {path} » a été atteint par un lien symbolique, ou déplacé, pendant son ouverture : il n’a pas été lu.',
  'rows.attachment.movedAway':
    '« {path} » a été atteint par un lien symbolique, ou déplacé, pendant son déplacement : il reste où il est.',
  'rows.outcome.stoppedBeforeRows':
    'Le traitement s’est arrêté avant que les lignes ne soient lues : {reason}',
  'rows.outcome.sheetJobGaveUp': 'le traitement de la liste a été abandonné : {reason}',
  'rows.outcome.unknownTime': 'un moment inconnu',
  'rows.outcome.noAnswerRecorded':
    'aucune réponse enregistrée : la tentative qui l’a envoyée s’est arrêtée ou n’a jamais reçu de réponse',
};
