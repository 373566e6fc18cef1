import type { dashboard as english } from '../en/dashboard.js';
import type { Translation } from '../translation.js';

export const dashboard: Translation<typeof english> = {
  'dashboard.language': 'Langue',

  'dashboard.nav.imports': 'Listes',
  'dashboard.nav.queues': 'Files d’attente',
  'dashboard.nav.health': 'État du système',
  'dashboard.title': '{page} · order-importer',
  'dashboard.unreachable': 'Impossible de joindre order-importer :',

  'dashboard.overview.title': 'order-importer : listes importées',
  'dashboard.overview.heading': 'Listes importées',
  'dashboard.overview.updated':
    '{count, plural, one {# liste} other {# listes}}, mise à jour : {time}',
  'dashboard.overview.unreadable': 'Les listes ne peuvent pas être lues pour l’instant : {reason}',
  'dashboard.column.sheet': 'Liste',
  'dashboard.column.received': 'Reçue',
  'dashboard.column.state': 'État',
  'dashboard.column.progress': 'Progression',
  'dashboard.column.created': 'Créées',
  'dashboard.column.invalid': 'Non valables',
  'dashboard.column.failed': 'En échec',
  'dashboard.column.needsReview': 'À vérifier',
  'dashboard.column.duplicate': 'Doublons',
  'dashboard.column.duration': 'Durée',
  'dashboard.column.reportOrders': 'Rapport · commandes',
  'dashboard.column.connection': 'Connexion · API',
  'dashboard.duplicateOf': 'doublon de {sheet}',
  'dashboard.sandbox': 'environnement de test',
  'dashboard.pace': '{rate} lignes/s',
  'dashboard.pace.left': '{rate} lignes/s · encore {left}',
  'dashboard.failedZip': 'failed/ (zip)',
  'dashboard.duration.seconds': '{seconds}\u00A0s',
  'dashboard.duration.minutes': '{minutes}\u00A0min {seconds}\u00A0s',
  'dashboard.duration.hours': '{hours}\u00A0h {minutes}\u00A0min',

  'dashboard.state.queued': 'en file d’attente',
  'dashboard.state.reading': 'en lecture',
  'dashboard.state.processing': 'en cours',
  'dashboard.state.reporting': 'rapport en cours',
  'dashboard.state.done': 'terminée',
  'dashboard.state.unreadable': 'illisible',

  'dashboard.status.created': 'créée',
  'dashboard.status.invalid': 'non valable',
  'dashboard.status.failed': 'en échec',
  'dashboard.status.needsReview': 'à vérifier',
  'dashboard.status.duplicate': 'doublon',
  'dashboard.status.pending': 'en attente',
  'dashboard.status.all': 'toutes',

  'dashboard.notTaken.heading': 'Listes non prises en charge',
  'dashboard.notTaken.intro':
    'Ces fichiers sont restés dans le dossier inbox. Corrigez ce qui est indiqué et déposez-les à nouveau.',
  'dashboard.notTaken.unreadable':
    'Les listes non prises en charge ne peuvent pas être lues pour l’instant : {reason}',
  'dashboard.notTaken.seen': 'Vu le',
  'dashboard.notTaken.file': 'Fichier',
  'dashboard.notTaken.why': 'Raison',

  'dashboard.orders.unreadable': 'status.csv n’a pas pu être lu : {reason}',
  'dashboard.orders.none': 'aucune commande',
  'dashboard.orders.ofStatus': '{count} {status}',
  'dashboard.orders.noStatus': '(sans statut)',
  'dashboard.orders.others':
    '{orders} dans {statuses, plural, one {# autre statut} other {# autres statuts}}',
  'dashboard.orders.nextInspection': 'prochain contrôle : {date}',
  'dashboard.orders.noneAhead': 'aucun contrôle prévu',
  'dashboard.orders.checked': 'mis à jour le {time}',
  'dashboard.orders.more': 'et {count} de plus',
  'dashboard.orders.notPlanned': 'pas encore planifié',
  'dashboard.orders.noInspector': 'pas encore de technicien',

  'dashboard.fact.connection': 'Connexion',
  'dashboard.fact.received': 'Reçue',
  'dashboard.fact.reported': 'Rapport établi',
  'dashboard.fact.duration': 'Durée',
  'dashboard.fact.rows': 'Lignes',
  'dashboard.fact.rowsEnded': '{ended} sur {total} terminées',
  'dashboard.fact.sameContent': 'Même contenu que',
  'dashboard.fact.workedBy': 'Traitée par',
  'dashboard.fact.workers':
    'les workers du dossier de données {folder} (installation {installation})',
  'dashboard.fact.workersOf': 'les workers du dossier de données (installation {installation})',
  'dashboard.fact.report': 'Rapport',
  'dashboard.fact.orders': 'Commandes',
  'dashboard.sheet.unreadable': 'Cette liste n’a pas pu être lue : {reason}',
  'dashboard.sheet.byStatus': 'Lignes par statut',
  'dashboard.rows.unreadable': 'Les lignes ne peuvent pas être lues pour l’instant : {reason}',
  'dashboard.rows.noReport':
    'son report.csv n’est pas dans son dossier de rapport (déplacé ou supprimé ?).',
  'dashboard.rows.notCounted': 'Ses lignes s’afficheront dès qu’elles seront comptées.',
  'dashboard.rows.noRows': 'Elle n’a aucune ligne à afficher.',
  'dashboard.rows.none':
    '{status, select, created {Aucune ligne créée ici.} invalid {Aucune ligne non valable ici.} failed {Aucune ligne en échec ici.} needsReview {Aucune ligne à vérifier ici.} duplicate {Aucun doublon ici.} other {Aucune ligne ici.}}',
  'dashboard.rows.range':
    '{status, select, created {Lignes créées} invalid {Lignes non valables} failed {Lignes en échec} needsReview {Lignes à vérifier} duplicate {Doublons} other {Lignes}} {from} à {to} sur {matching}.',
  'dashboard.rows.running':
    'Cette liste est encore en cours d’importation : ses lignes s’affichent ici à mesure qu’elles se terminent, avec l’adresse et le contact dès que le rapport est établi.',
  'dashboard.rows.partly':
    'Pour ce statut, seules {looked} des {ended} lignes terminées jusqu’ici ont été parcourues ; le rapport les reprendra toutes.',
  'dashboard.rows.firstRow': 'première ligne {row}',
  'dashboard.rows.previous': '‹ Précédente',
  'dashboard.rows.next': 'Suivante ›',
  'dashboard.rows.page': 'Page {page} sur {pages}',
  'dashboard.rows.pages': 'Pages',
  'dashboard.head.row': 'Ligne',
  'dashboard.head.status': 'Statut',
  'dashboard.head.reference': 'Référence',
  'dashboard.head.address': 'Adresse',
  'dashboard.head.contact': 'Contact',
  'dashboard.head.error': 'Erreur',
  'dashboard.head.order': 'Commande',
  'dashboard.head.files': 'Pièces jointes',
  'dashboard.head.orderStatus': 'Statut de la commande',
  'dashboard.head.sheet': 'Liste',
  'dashboard.unknownSheet.heading': 'Liste introuvable',
  'dashboard.unknownSheet.text': 'Aucune liste ici ne porte l’identifiant « {id} ».',
  'dashboard.unknownSheet.back': 'Toutes les listes',
  'dashboard.badQuery.heading': 'Cette page n’existe pas pour cette liste',
  'dashboard.badQuery.text':
    'Ses lignes s’affichent par statut ({statuses}) et par numéro de page à partir de 1.',
  'dashboard.badQuery.back': 'Toutes ses lignes',

  'dashboard.search.heading': 'Recherche',
  'dashboard.search.button': 'Rechercher',
  'dashboard.search.box': 'Référence, adresse ou contact',
  'dashboard.search.intro':
    'Cherchez une référence, une adresse ou un contact dans les derniers rapports.',
  'dashboard.search.unreadable':
    'Les rapports ne peuvent pas être parcourus pour l’instant : {reason}',
  'dashboard.search.tooLong':
    'la recherche doit tenir en un seul texte de 100 caractères au maximum.',
  'dashboard.search.busy':
    '{count, plural, one {# recherche est déjà en cours} other {# recherches sont déjà en cours}} ; réessayez dans quelques secondes.',
  'dashboard.search.searched':
    '{found, plural, =0 {Aucun résultat} one {# résultat} other {# résultats}} pour « {query} » dans {sheets, plural, one {# liste avec rapport} other {# listes avec rapport}}, {rows, plural, one {# ligne} other {# lignes}}{stopped, select, yes { ; {why}} other {}}.',
  'dashboard.search.stoppedSheets':
    'seules les {count} dernières listes avec rapport sont parcourues',
  'dashboard.search.stoppedHits': 'recherche arrêtée à {count} lignes trouvées',
  'dashboard.search.stoppedRows': 'recherche arrêtée après {count} lignes',
  'dashboard.search.stoppedTime': 'recherche arrêtée après {seconds}\u00A0s',
  'dashboard.search.running':
    'Les listes encore en cours d’importation ({count}) seront parcourues dès que leur rapport sera établi.',
  'dashboard.search.unreadableReports':
    'Le rapport de {names} n’a pas pu être lu jusqu’au bout (modifié sur le disque depuis qu’il a été écrit ?).',

  'dashboard.login.heading': 'Se connecter',
  'dashboard.login.text':
    'Ce tableau de bord demande un nom d’utilisateur et un mot de passe : ceux de DASHBOARD_USER et DASHBOARD_PASSWORD.',
  'dashboard.notFound.heading': 'Page introuvable',
  'dashboard.notFound.text': 'Le tableau de bord n’a pas de page à cette adresse.',
  'dashboard.foreignHost':
    'Ce tableau de bord ne répond pas {named, select, yes {au nom d’hôte {host}} other {à une requête sans nom d’hôte}}. Si ce nom est celui de cette machine, ajoutez-le à DASHBOARD_HOSTS (noms séparés par des virgules), ou ouvrez le tableau de bord à l’adresse http://localhost.',
  'dashboard.writeRefused':
    'Le tableau de bord ne fait qu’afficher les importations : il n’ajoute, ne relance, ne modifie ni ne supprime aucune tâche ni file d’attente.',
  'dashboard.noReportFile.heading': 'Fichier introuvable',
  'dashboard.noReportFile.text': 'Il n’y a pas (encore) de {file} pour cette liste.',
  'dashboard.noFailed.text': 'Cette liste n’a pas de dossier failed/.',
  'dashboard.search.next': 'Prochain contrôle',
  'dashboard.search.notRead': 'pas encore relu',

  // La boucle de correction : une liste de failed/ redéposée, liée à la liste qu’elle corrige.
  'dashboard.fix.sheet': '{name} du {time} ({id})',
  'dashboard.fix.fixes': 'corrige des lignes de {sheet}',
  'dashboard.fix.fixedLater':
    '{count, plural, one {# ligne corrigée plus tard} other {# lignes corrigées plus tard}} dans {sheets}',
  'dashboard.fix.row': 'corrigée plus tard dans {sheet}',
  'dashboard.fact.fixes': 'Corrige',
  'dashboard.fact.fixedLater': 'Corrigé plus tard',
  'dashboard.fact.open': 'Problèmes non résolus',

  // The agenda (who comes when).
  'dashboard.nav.agenda': 'Agenda',
  'dashboard.agenda.heading': 'Agenda',
  'dashboard.agenda.intro':
    'Qui vient quand\u202f: chaque contrôle des commandes relues {days, plural, one {au cours du dernier jour} other {au cours des # derniers jours}}, par date et heure (heure de Bruxelles).',
  'dashboard.agenda.office': 'Bureau',
  'dashboard.agenda.allOffices': 'Tous les bureaux',
  'dashboard.agenda.from': 'Du',
  'dashboard.agenda.to': 'Au',
  'dashboard.agenda.status': 'Statut',
  'dashboard.agenda.allStatuses': 'Tous les statuts',
  'dashboard.agenda.show': 'Afficher',
  'dashboard.agenda.col.day': 'Jour',
  'dashboard.agenda.col.time': 'Heure',
  'dashboard.agenda.col.product': 'Contrôle',
  'dashboard.agenda.col.address': 'Adresse',
  'dashboard.agenda.col.contact': 'Contact',
  'dashboard.agenda.col.phone': 'Téléphone',
  'dashboard.agenda.col.inspector': 'Technicien',
  'dashboard.agenda.col.status': 'Statut de la commande',
  'dashboard.agenda.col.reference': 'Référence',
  'dashboard.agenda.col.sheet': 'Liste',
  'dashboard.agenda.col.row': 'Ligne',
  'dashboard.agenda.col.office': 'Bureau',
  'dashboard.agenda.col.orderId': 'Commande',
  'dashboard.agenda.counted':
    '{count, plural, =0 {Aucun contrôle} one {# contrôle} other {# contrôles}} du {from} au {to}.',
  'dashboard.agenda.unplanned':
    '{count, plural, =0 {Aucun contrôle n’attend d’être planifié.} one {# contrôle pas encore planifié} other {# contrôles pas encore planifiés}}',
  'dashboard.agenda.cancelled': 'annulé',
  'dashboard.agenda.download': 'Télécharger :',
  'dashboard.agenda.calendarFile': 'agenda (.ics)',
  'dashboard.agenda.feeds': 'Abonnements d’agenda',
  'dashboard.agenda.feedsText':
    'Abonnez-vous aux contrôles d’un bureau dans Outlook ou Google Agenda avec l’adresse ci-dessous. Ne la communiquez pas\u202f: toute personne qui la possède voit les visites de ce bureau.',
  'dashboard.agenda.badQuery':
    'Ces filtres ne sont pas valables\u202f: une date s’écrit AAAA-MM-JJ. L’agenda des 30 prochains jours est affiché à la place.',
  'dashboard.agenda.ics.contact': 'Contact',
  'dashboard.agenda.ics.phone': 'Téléphone',
  'dashboard.agenda.ics.inspector': 'Technicien',
  'dashboard.agenda.ics.reference': 'Référence',
  'dashboard.agenda.ics.order': 'Commande',
  'dashboard.agenda.ics.name': 'Contrôles {office}',
  'dashboard.agenda.csvFile': 'CSV',
  'dashboard.agenda.xlsxFile': 'Excel',
  'dashboard.login.users':
    'Ce tableau de bord demande votre propre nom d’utilisateur et votre mot de passe, créés pour vous avec order-importer dashboard-user.',
  // Tooltips: a sheet's whole id beside its short one, an attachment's id at its name.
  'dashboard.sheet.idTitle': 'Liste {id}',
  'dashboard.file.idTitle': 'Identifiant du fichier {id}',
  'dashboard.redis.away':
    'Redis ne répond pas (depuis {since}) : {asOf, select, none {rien n’a encore pu y être lu} other {ce qui est affiché a été lu à {asOf}}}. La page est de nouveau à jour dès que Redis est revenu.',
};
