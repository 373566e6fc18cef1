import type { email as english } from '../en/email.js';
import type { Translation } from '../translation.js';

// Before : ; ? ! French puts a narrow no-break space (U+202F), written here as it is.
export const email: Translation<typeof english> = {
  'email.signature': '— order-importer',
  'email.connection':
    'Connexion « {name} » ({sandbox, select, yes {l’environnement de test intégré sur {host} : aucune commande réelle n’a été passée} other {{host}}}).',
  'email.unnamed-sheet': 'une liste',
  'email.event': 'Événement {event}.',
  'email.next': 'Que faire maintenant :',
  'email.warnings': 'Avertissements :',
  'email.done.subject': '{sheet} : {counts}',
  'email.done.subject-todo': '{sheet} : {counts} (action requise)',
  'email.done.created': '{count, plural, one {# créée} other {# créées}}',
  'email.done.duplicate':
    '{count, plural, one {# déjà importée (doublon)} other {# déjà importées (doublons)}}',
  'email.done.invalid': '{count, plural, one {# non valable} other {# non valables}}',
  'email.done.failed': '{count, plural, other {# en échec}}',
  'email.done.review': '{count, plural, other {# à vérifier}}',
  'email.done.imported':
    'La liste {sheet} est importée : {total, plural, one {# ligne} other {# lignes}}, {counts}.',
  'email.done.unreadable':
    'La liste n’a pas pu être lue : {reason}. Corrigez-la et déposez-la à nouveau dans le dossier inbox.',
  'email.done.to-fix':
    '{count, plural, one {# ligne a échoué ou n’est pas valable : corrigez-la dans le dossier failed/ du rapport (la colonne error indique le problème) et redéposez ce dossier dans le dossier inbox.} other {# lignes ont échoué ou ne sont pas valables : corrigez-les dans le dossier failed/ du rapport (la colonne error indique le problème) et redéposez ce dossier dans le dossier inbox.}}',
  'email.done.review-next':
    '{count, plural, one {# ligne est à vérifier : la commande existe peut-être déjà. Consultez needs-review.csv avant de la renvoyer, pour qu’aucune commande ne soit créée deux fois.} other {# lignes sont à vérifier : ces commandes existent peut-être déjà. Consultez needs-review.csv avant de les renvoyer, pour qu’aucune commande ne soit créée deux fois.}}',
  'email.done.nothing':
    'Rien à faire : toutes les lignes ont été créées ou étaient déjà importées.',
  'email.done.report-in': 'Le rapport se trouve dans {folder}.',
  'email.done.attached':
    'Vous trouverez report.csv en pièce jointe : une ligne par ligne de la liste.',
  'email.done.not-attached': 'report.csv n’est pas en pièce jointe : {reason}.',
  'email.done.ids': 'Liste {sheetId}, événement {event}.',
  'email.attach.no-folder': 'l’événement n’indique aucun dossier de rapport',
  'email.attach.outside': 'son dossier {folder} ne se trouve pas dans REPORTS_DIR ({reportsDir})',
  'email.attach.not-file': '{path} n’est pas un fichier ordinaire',
  'email.attach.gone':
    'le fichier n’est plus à l’emplacement {path} (déplacé ou supprimé entre-temps)',
  'email.attach.denied': '{path} ne peut pas être lu ({code})',
  'email.unreadable.subject': 'La liste {sheet} est illisible',
  'email.unreadable.intro':
    'La liste {sheet} ne peut pas être lue ; aucune commande n’en a donc été créée :',
  'email.unreadable.no-reason': '(aucune raison indiquée)',
  'email.unreadable.moved': 'Elle a été déplacée vers {folder}, avec error.txt à côté.',
  'email.unreadable.next':
    'Que faire maintenant : corrigez la liste et déposez-la à nouveau dans le dossier inbox.',
  'email.changed.subject':
    '{sheet} : {count, plural, one {# commande modifiée} other {# commandes modifiées}}',
  'email.changed.intro':
    '{count, plural, one {# commande de {sheet} a été modifiée} other {# commandes de {sheet} ont été modifiées}} :',
  'email.changed.sheet-id': 'liste {sheetId}',
  'email.changed.order': 'ligne {row}, commande {order} : {state}',
  'email.changed.order-reference': 'ligne {row} ({reference}), commande {order} : {state}',
  'email.changed.from-to': '{before} → {after}',
  'email.state.reason': '{status} ({reason})',
  'email.state.visits': '{state} [{visits}]',
  'email.visit': '{product} {date}',
  'email.visit.by': '{product} {date}, technicien {inspector}',
  'email.visit.no-date': 'pas encore de date',
  'email.order-status.not-found': 'introuvable',
  'email.changed.at': '{address} — {order}',
};
