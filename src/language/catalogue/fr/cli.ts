import type { cli as english } from '../en/cli.js';
import type { Translation } from '../translation.js';

export const cli: Translation<typeof english> = {
  'cli.unexpected': 'erreur inattendue : {details}',

  'cli.error.import.no-such-file':
    '{path} {kind, select, not_file {n’est pas un fichier} other {n’existe pas}}.',
  'cli.error.import.stopped': 'l’importation s’est arrêtée : {reason}',
  'cli.error.config.invalid.unreadable': '--config {file} ne peut pas être lu : {reason}.',
  'cli.error.config.invalid.json': '--config {file} n’est pas du JSON valide : {mistake}.',
  'cli.error.config.invalid.not-object':
    '--config {file} doit contenir un objet JSON de paramètres.',
  'cli.error.config.invalid.unknown':
    '--config {file} : paramètre inconnu {unknown} ; paramètres possibles : {known}.',
  'cli.error.config.invalid.setting':
    '{from, select, file {« {setting} » dans {file}} other {{source}}} : {at}{issue, select, required {est obligatoire} type {doit être {expected, select, number {un nombre} int {un nombre entier} string {du texte} boolean {true ou false} array {une liste} object {un objet} other {de type {expected}}}} empty {ne peut pas être vide} at_least {doit valoir au moins {limit}} more_than {doit valoir plus de {limit}} at_most {doit valoir au plus {limit}} less_than {doit valoir moins de {limit}} one_of {doit être l’une de ces valeurs : {choices}} url {doit être une URL} not_url {n’est pas une URL : donnez-la sous la forme https://hôte[:port][/chemin]} scheme {doit être une URL http:// ou https://} credentials {ne doit contenir ni nom d’utilisateur ni mot de passe (user:pass@) : donnez le jeton avec API_TOKEN ou API_TOKEN_FILE} query {ne doit contenir ni requête (?…) ni fragment (#…)} other {{why}}} (reçu : {got}).',
  'cli.error.api.token-missing':
    'API_BASE_URL est défini, mais aucun jeton n’est fourni : définissez API_TOKEN ou API_TOKEN_FILE.',
  'cli.error.api.token-refused':
    'L’API à l’adresse {url} a refusé le jeton ({reason}) : vérifiez {connection, select, none {API_TOKEN / API_TOKEN_FILE} other {le fichier de jeton de la connexion « {connection} » ({file})}}.',
  'cli.error.api.unusable': 'L’API à l’adresse {url} n’est pas utilisable : {reason}',
  'cli.error.api.no-answer':
    'L’API à l’adresse {url} n’a pas répondu dans les {seconds} s (API_WAIT_S) : {reason} Vérifiez qu’elle est en service et que API_BASE_URL est correct, ou augmentez API_WAIT_S.',
  'cli.error.redis.unavailable.configured':
    'REDIS_URL {url} ne répond pas ({problem}) : démarrez ce Redis, ou retirez REDIS_URL pour utiliser un Redis local.',
  'cli.error.redis.unavailable.no-private':
    'Aucun Redis ne répond à l’adresse {url}, et aucun redis-server propre à order-importer ne tourne sous {dir} : lancez d’abord order-importer watch (ou worker), ou définissez REDIS_URL.',
  'cli.error.redis.unavailable.not-installed':
    'Aucun Redis ne répond à l’adresse {url} et redis-server n’est pas installé : installez-le (Debian/Ubuntu : apt-get install redis-server ; macOS : brew install redis) ou définissez REDIS_URL.',
  'cli.error.redis.unavailable.not-started':
    'Impossible de démarrer son propre redis-server dans {dir} : {reason}',
  'cli.error.redis.no-answer':
    'Redis à l’adresse {url} ne répond plus depuis {seconds} s (REDIS_WAIT_S) : l’importation s’arrête. Dès que Redis répond à nouveau, relancez la même importation : elle reprendra là où elle s’est arrêtée.',
  'cli.error.redis.data-lost':
    'Redis à l’adresse {url} a perdu ses données (la liste {sheetId} n’est plus connue : Redis a redémarré sans AOF, ou les clés ont été supprimées) : l’importation s’arrête. Les commandes dont la réponse s’est perdue sont mises de côté pour vérification, jamais renvoyées. Lancez `order-importer ledger rebuild` avant d’importer à nouveau, pour que les commandes déjà passées soient reconnues comme doublons au lieu d’être passées une seconde fois.',

  'cli.status':
    '{status, select, created {créée} duplicate {doublon} invalid {non valable} failed {en échec} needs_review {à vérifier} pending {en attente} other {{status}}}',
  'cli.status.count':
    '{count, plural, other {#}} {status, select, created {{count, plural, one {créée} other {créées}}} duplicate {{count, plural, one {doublon} other {doublons}}} invalid {{count, plural, one {non valable} other {non valables}}} failed {en échec} needs_review {à vérifier} pending {en attente} other {{status}}}',
  'cli.row': 'ligne {row}',
  'cli.row.line': 'ligne {row} (ligne {line} du fichier)',
  'cli.row.reference': 'référence {reference}',
  'cli.row.order': '(commande {order})',

  'cli.import.queued':
    '{resumed, select, yes {Reprise de} other {Mise en file d’attente de}} {sheet} (liste {sheetId}).',
  'cli.import.queued-awaits':
    '{resumed, select, yes {Reprise de} other {Mise en file d’attente de}} {sheet} (liste {sheetId}) : le même contenu est déjà en cours d’importation (liste {other}, dossier de données {dataDir}, installation {installation}) ; cette liste attend que les workers de ce dossier aient terminé cette importation, puis signale ses lignes comme doublons.',
  'cli.import.no-workers':
    'Aucun worker dans ce processus (--no-workers) : en attente de processus `order-importer worker` avec {connection, select, none {la même API_BASE_URL et le même jeton} other {la connexion « {connection} » dans leur fichier de configuration}} (connexion {id}, {url}) et ce dossier de données {dataDir} (installation {installation}), où se trouvent les copies des listes ; les workers d’autres connexions ou d’autres dossiers de données ne touchent pas à ces lignes.',
  'cli.import.interrupted':
    'Interrompu : les lignes en cours se terminent ; relancez la même importation pour reprendre le reste.',
  'cli.import.planning':
    'L’environnement de test planifie ces commandes {seconds} s après leur création : lancez ensuite `order-importer status` pour voir les dates et les techniciens.',
  'cli.import.notifications-waiting':
    'En attente de l’envoi de {count, plural, one {# notification} other {# notifications}}…',
  'cli.import.notifications-left':
    '{count, plural, one {# notification n’a pas encore pu être envoyée (le destinataire est absent ou occupé) : elle reste en file d’attente, et le prochain `order-importer watch` ou `worker` sur ce Redis l’enverra.} other {# notifications n’ont pas encore pu être envoyées (le destinataire est absent ou occupé) : elles restent en file d’attente, et le prochain `order-importer watch` ou `worker` sur ce Redis les enverra.}}',
  'cli.summary.sheet': 'liste',
  'cli.summary.rows': 'lignes',
  'cli.summary.unreadable': '{sheet} : illisible : {error}',
  'cli.summary.duplicate': '{sheet} : déjà importée (liste {other}) ; rien n’a été renvoyé.',
  'cli.summary.warning': '{sheet} : attention : {warning}',
  'cli.summary.report': 'Rapport : {dir}',
  'cli.reasons.head': '{count, plural, one {# ligne non créée} other {# lignes non créées}}',
  'cli.reasons.unreadable':
    '{file} ne peut pas être lu ({code}) : les raisons ne sont pas affichées.',
  'cli.reasons.more': '… et {count, number} de plus — voir {file}',

  'cli.progress.done': 'terminé : {count, plural, one {# ligne} other {# lignes}}',
  'cli.progress.queued': 'en file d’attente',
  'cli.progress.reading': 'lecture…',
  'cli.progress.rows': '{final}/{total, plural, one {# ligne} other {# lignes}}',
  'cli.progress.rate': '{rate} lignes/s',
  'cli.progress.eta': 'encore {duration}',
  'cli.progress.not-created': 'non créées jusqu’ici : {count, number}',

  'cli.validate.missing': 'ne peut pas être vérifiée : {reason}',
  'cli.validate.unreadable': 'illisible : {reason}',
  'cli.validate.not-a-file': '{path} n’est pas un fichier.',
  'cli.validate.no-such-file': '{path} n’existe pas.',
  'cli.validate.cannot-open': '{path} ne peut pas être ouvert ({code}).',
  'cli.validate.checked':
    '{name} : {count, plural, one {# ligne vérifiée} other {# lignes vérifiées}}…',
  'cli.validate.warning': 'attention : {warning}',
  'cli.validate.counts':
    '{total, plural, one {# ligne} other {# lignes}} : {valid, plural, one {# valable} other {# valables}}, {invalid, plural, one {# non valable} other {# non valables}}',

  'cli.done.counts': 'Terminé : {name} (liste {sheetId}) : {counts}.',
  'cli.done.unreadable': 'Terminé : {name} (liste {sheetId}) : la liste est illisible : {error}',
  'cli.done.no-rows': 'aucune ligne',
  'cli.done.report': 'Rapport : {dir}/',
  'cli.done.see': '— voir {page}',
  'cli.watch.sandbox':
    'Les commandes sont envoyées à l’environnement de test intégré ({url}), pas à la société de contrôle.',
  'cli.watch.api': 'Les commandes sont envoyées à l’API à l’adresse {url} (connexion « {name} »).',
  'cli.watch.watching':
    'Surveillance de {inbox}{polling, select, yes { (vérifié chaque seconde)} other {}} : déposez-y une liste (avec ses documents).',
  'cli.watch.watching-offices':
    'Surveillance de {inbox}{polling, select, yes { (vérifié chaque seconde)} other {}} : déposez une liste (avec ses documents) dans le sous-dossier de son bureau ({offices}) ; une liste placée ailleurs n’est pas prise en charge.',
  'cli.watch.office-inbox': '{folder}/ pour « {name} »',
  'cli.watch.mapping-every': 'Chaque liste est lue avec le fichier de correspondance {file}.',
  'cli.watch.mapping-config':
    'Les listes sans mapping.json à côté d’elles{connections, select, yes { ni fichier de correspondance propre à leur connexion} other {}} sont lues avec le fichier de correspondance {file}.',
  'cli.watch.reports': 'Les rapports sont enregistrés dans {dir}.',
  'cli.dashboard.url': 'Tableau de bord : {url}/  (files d’attente : {url}/queues)',
  'cli.dashboard.hosts':
    'Le tableau de bord ne répond qu’aux noms d’hôte {hosts}{advice, select, yes { : ajoutez à DASHBOARD_HOSTS les noms par lesquels on l’atteint} other {}}.',
  'cli.stop-hint': 'Pour arrêter : Ctrl+C.',
  'cli.stopped': 'Arrêté.',
  'cli.watch.stopping':
    '{signal} : plus aucune liste n’est prise en charge ; les lignes en cours se terminent (Ctrl+C une seconde fois pour arrêter immédiatement)…',
  'cli.watch.stop-now':
    'Arrêt immédiat ; les lignes en cours reprendront au prochain démarrage à partir de leur dernière étape enregistrée.',
  'cli.left.unknown':
    'Ce qui reste n’a pas pu être compté (Redis n’a pas répondu) ; le prochain démarrage le reprendra.',
  'cli.left.rows':
    '{rows, plural, one {# ligne reste} other {# lignes restent}} pour le prochain démarrage (dans {sheets, plural, one {# liste} other {# listes}}).',
  'cli.left.rows-also':
    '{rows, plural, one {# ligne reste} other {# lignes restent}} pour le prochain démarrage (dans {sheets, plural, one {# liste} other {# listes}}), ainsi que {also}.',
  'cli.left.uncounted':
    '{count, plural, one {# liste pas encore assez lue pour être comptée} other {# listes pas encore assez lues pour être comptées}}',
  'cli.left.unreported': 'le rapport de {count, plural, one {# liste} other {# listes}}',
  'cli.left.none':
    'Aucune ligne ne reste pour le prochain démarrage : toutes les listes prises en charge sont terminées.',
  'cli.left.only': 'Reste pour le prochain démarrage : {also}.',
  'cli.intake.took': '{file} pris en charge (liste {sheetId}).',
  'cli.intake.took-for':
    '{file} pris en charge (liste {sheetId}) pour la connexion « {connection} ».',
  'cli.intake.unreadable': '{file} est illisible : déplacé vers {folder}.',
  'cli.intake.recovered':
    '{count, plural, one {# prise en charge interrompue} other {# prises en charge interrompues}} par un arrêt précédent {count, plural, one {a été terminée} other {ont été terminées}}.',
  'cli.intake.stranded':
    '{folder} était en file d’attente, mais Redis n’en a aucune trace (Redis a-t-il perdu ses données ?) : le dossier est laissé tel quel. Vérifiez quelles lignes ont déjà une commande, puis redéposez la liste dans le dossier inbox.',
  'cli.schedule':
    'La planification « {name} » ({cron}) parcourt {dir}{connection, select, none {} other { pour la connexion « {connection} »}}{missing, select, yes {, qui n’existe pas (encore) : le parcours échoue tant qu’il n’existe pas} other {}}.',
  'cli.status-sync.off':
    'Les commandes ne sont pas relues selon une planification (STATUS_SYNC_CRON off) : `order-importer status` s’en charge.',
  'cli.status-sync.on':
    'Les commandes des listes dont le rapport date des {days} derniers jours sont relues selon « {cron} » (STATUS_SYNC_CRON) dans le status.csv de chaque rapport.',
  'cli.redis.private':
    'Redis : un redis-server propre à order-importer, à l’adresse {url} (données sous DATA_DIR/redis, AOF activé).',
  'cli.redis.url':
    'Redis : {url}{local, select, yes { (le Redis local par défaut ; définissez REDIS_URL pour en utiliser un autre)} other {}}.',
  'cli.redis.forgetful':
    '{where} {kind, select, none {ne garde rien sur disque (ni AOF, ni instantanés) : } snapshots {ne garde que des instantanés{rules}, sans AOF : ce qui a été écrit depuis le dernier instantané est perdu lors d’un redémarrage ; } other {n’a pas d’AOF, et on ne peut pas lui demander s’il prend des instantanés (CONFIG est refusé) : s’il ne garde rien sur disque, }}un redémarrage fait perdre les importations en cours et le registre des doublons ; order-importer arrête alors ce travail et refuse d’importer tant que `order-importer ledger rebuild` n’a pas reconstruit le registre à partir des rapports. Activez l’AOF (appendonly yes) pour les conserver.',
  'cli.redis.at': 'Redis à l’adresse {url}',
  'cli.sandbox.banner':
    '*** Aucune API_BASE_URL n’est définie : les commandes sont envoyées à l’ENVIRONNEMENT DE TEST INTÉGRÉ, pas à la société de contrôle. ***',
  'cli.sandbox.where':
    '*** Environnement de test à l’adresse {url} (données sous DATA_DIR/sandbox). Définissez API_BASE_URL et API_TOKEN pour passer de vraies commandes. ***',
  'cli.connection':
    'Connexion « {name} » : commandes envoyées {sandbox, select, yes {à l’ENVIRONNEMENT DE TEST INTÉGRÉ ({host})} other {à {host} ({url}), pas à l’environnement de test intégré}}{mapping, select, none {} other { ; ses listes sont lues avec le fichier de correspondance {mapping}}}.',
  'cli.outage.away':
    '{what, select, api {L’API à l’adresse {url}} other {Redis à l’adresse {url}}} ne répond pas ({reason}) : {meanwhile, select, api_wait {on l’attend jusqu’à {seconds} s (API_WAIT_S)} rows {les lignes l’attendent et seront réessayées} other {le travail l’attend et reprend dès son retour}}.',
  'cli.outage.back':
    '{what, select, api {L’API à l’adresse {url}} other {Redis à l’adresse {url}}} répond à nouveau, après {minutes, select, none {{seconds} s} other {{minutes} min {seconds} s}}.',
  'cli.redis.forgot':
    'Redis est revenu sans ses données (il ne garde rien sur disque) : le travail de la connexion « {connection} » s’arrête, aucune commande n’est renvoyée, et les commandes dont la réponse s’est perdue sont mises de côté pour vérification. Lancez `order-importer ledger rebuild` avant d’importer à nouveau.',
  // status
  'cli.status.none':
    'Aucune liste n’a de rapport datant des {days} derniers jours (STATUS_DAYS) dans {dir}.',
  'cli.status.sheet.final':
    '{sheetId} ({dir}) : {orders, plural, one {# commande, dans un état définitif ({statuses}) : pas relue} other {# commandes, toutes dans un état définitif ({statuses}) : pas relues}}.',
  'cli.status.sheet.read': '{sheetId} ({dir}) : {parts}.',
  'cli.status.sheet.error': '{sheetId} ({dir}) : {error}',
  'cli.status.orders': '{count, plural, one {# commande} other {# commandes}}',
  'cli.status.by-status': '{count, number} {status}',
  'cli.status.changed': '{count, plural, one {# modifiée} other {# modifiées}}',
  'cli.status.unreadable':
    '{count, plural, one {# illisible pour l’instant (sa ligne précédente est conservée)} other {# illisibles pour l’instant (leurs lignes précédentes sont conservées)}}',
  'cli.status.not-configured':
    'importée via la connexion{name, select, none {} other { « {name} »}} ({id, select, none {non indiquée dans son summary.json} other {{id}}}), qui n’est pas configurée ici : pas relue (ses commandes ne peuvent être lues qu’avec le jeton de cette connexion).',
  'cli.status.unreadable-order': 'ligne {row}, commande {order} : {reason}',
  'cli.status.more': '… et {count, number} de plus',
  'cli.status.reading': '{sheetId} : lecture des commandes {done, number}/{total, number}',
  'cli.status.interrupted':
    'Interrompu : les listes pas encore relues gardent leur status.csv précédent.',
  'cli.status.then': '{before} ; {after}',
  // worker, dashboard, monitoring, start
  'cli.worker.ready':
    'Worker prêt : {concurrency, plural, one {# ligne} other {# lignes}} à la fois par connexion, commandes envoyées à {served} ; seules les listes de ces connexions sont traitées ici. Pour arrêter : Ctrl+C.',
  'cli.worker.served': '{url} (connexion « {name} », {id})',
  'cli.worker.stopping':
    '{signal} : les lignes en cours se terminent (Ctrl+C une seconde fois pour arrêter immédiatement)…',
  'cli.worker.stop-now':
    'Arrêt immédiat ; les lignes en cours reprendront au prochain démarrage à partir de leur dernière étape enregistrée.',
  'cli.dashboard.shows':
    'Il affiche les importations enregistrées dans le Redis {url} (préfixe {prefix}) ; il n’en lance aucune lui-même.',
  'cli.dashboard.no-api':
    'Aucune API_BASE_URL n’est définie : /healthz ne vérifie pas l’API ("api": null).',
  'cli.metrics': 'Métriques : {url}/metrics  (santé : {url}/healthz, {url}/readyz)',
  'cli.forgot.waiting':
    '{forgot} En attente : les listes restent dans le dossier inbox, aucune ligne n’est traitée.',
  'cli.stop.lifted': 'L’arrêt précédent ({reason}) est levé : l’API accepte à nouveau le jeton.',

  // ledger rebuild
  'cli.ledger.rebuilt':
    'Connexion « {name} » : le registre des doublons a été reconstruit à partir de {reports, plural, one {# rapport} other {# rapports}} et de {unreported, plural, one {# importation interrompue} other {# importations interrompues}} : {created, plural, one {# commande} other {# commandes}} et {unknown, plural, one {# commande à l’issue inconnue} other {# commandes à l’issue inconnue}} inscrites ; déjà présentes : {kept, number}.',
  'cli.ledger.rekeyed':
    '{count, plural, one {# commande d’une ligne sans référence a été identifiée grâce à sa liste, conservée sur le disque.} other {# commandes de lignes sans référence ont été identifiées grâce à leur liste, conservée sur le disque.}}',
  'cli.ledger.keyless':
    '{count, plural, one {# commande d’une ligne sans référence n’a pas pu être inscrite au registre (sa clé n’a pas été enregistrée et sa liste n’est plus là pour la recalculer) : cette ligne n’est pas reconnue comme déjà importée.} other {# commandes de lignes sans référence n’ont pas pu être inscrites au registre (leur clé n’a pas été enregistrée et leur liste n’est plus là pour la recalculer) : ces lignes ne sont pas reconnues comme déjà importées.}}',
  'cli.ledger.skipped': 'Ignoré : {what}',
  'cli.ledger.done':
    'Les importations peuvent reprendre : les lignes déjà importées seront reconnues comme doublons, sans seconde commande.',
  'cli.error.redis.forgot':
    'Redis n’a aucune importation de ce dossier de données (il a redémarré sans ses données, ou ce n’est pas le même Redis) : le registre des doublons de la connexion « {connection} » a disparu. Lancez `order-importer ledger rebuild` ; d’ici là, les importations de cette connexion sont refusées.',
  'cli.error.ledger.unknown-action':
    'order-importer ledger {action} : action inconnue ; la seule action possible est « rebuild » (`order-importer ledger rebuild`).',
  // The settings' remaining errors, connections, the token.
  'cli.error.config.invalid.schedules': '« schedules » dans {file} : {problem}.',
  'cli.error.config.invalid.cron':
    '« schedules » dans {file} : le motif cron « {cron} » de « {name} » n’est pas utilisable : {problem}. Un motif compte 5 champs (minute heure jour mois jour-de-la-semaine), ou 6 avec les secondes en premier, p. ex. « 0 2 * * * ».',
  'cli.error.config.invalid.schedule-connection':
    '« schedules » dans {file} : « {name} » doit indiquer sa connexion sous « connection » (l’une de celles-ci : {names}).',
  'cli.error.config.invalid.schedule-connection-unknown':
    '« schedules » dans {file} : « {name} » indique la connexion « {connection} », {count, plural, =0 {mais le fichier ne définit aucune connexion sous « connections »} other {qui ne figure pas parmi {names}}}.',
  'cli.error.config.invalid.schedule-scans-inbox':
    '« schedules » dans {file} : « {name} » parcourt {dir} pour la connexion « {connection} », mais le dossier inbox de « {other} » ({inbox}) s’y trouve aussi : ses listes seraient envoyées avec le jeton de « {connection} ». Donnez à la planification un dossier qui lui est propre, ou le dossier inbox de sa propre connexion.',
  'cli.error.config.invalid.mapping':
    '« mapping » dans {file} : indiquez le chemin d’un fichier de correspondance, relatif à l’emplacement du fichier de configuration (reçu : {got}).',
  'cli.error.config.invalid.half-email':
    '{set1}{set2, select, none {} other { et {set2}}} {set2, select, none {est défini} other {sont définis}} sans {missing1}{missing2, select, none {} other { ni {missing2}}} : les notifications par e-mail nécessitent NOTIFY_EMAIL_TO, NOTIFY_EMAIL_FROM et SMTP_URL. Définissez les trois, ou aucun.',
  'cli.error.config.invalid.half-webhook':
    'NOTIFY_WEBHOOK_SECRET est défini sans NOTIFY_WEBHOOK_URL : indiquez dans NOTIFY_WEBHOOK_URL l’adresse à laquelle les événements doivent être envoyés, ou retirez le secret.',
  'cli.error.config.invalid.inbox-overlap':
    'INBOX_DIR ({inbox}) et le dossier {what} propre à order-importer ({dir}) sont l’un dans l’autre : le dossier inbox prendrait les fichiers d’order-importer pour des listes. Placez le dossier inbox ailleurs, à côté des dossiers work, archive, failed et reports de DATA_DIR.',
  'cli.error.config.invalid.connections-and-single':
    '{single} est défini, alors que {file} contient des « connections », où chaque connexion a sa propre API et son propre fichier de jeton : retirez {single} (et les paramètres qui vont avec), ou retirez « connections ».',
  'cli.error.config.invalid.connections.not-list':
    '« connections » dans {file} : doit être une liste de connexions.',
  'cli.error.config.invalid.connections.empty':
    '« connections » dans {file} : ne peut pas être vide (retirez-le pour utiliser API_BASE_URL et API_TOKEN).',
  'cli.error.config.invalid.connections.token':
    '« connections » dans {file} : entrée {entry}{name, select, none {} other { (« {name} »)}} : « token » n’est pas accepté ici, car un fichier de configuration finit souvent dans des sauvegardes ou des tickets. Mettez le jeton dans un fichier à part et indiquez ce fichier sous « tokenFile ».',
  'cli.error.config.invalid.connections.entry':
    '« connections » dans {file} : entrée {entry}{name, select, none {} other { (« {name} »)}} : {problem}.',
  'cli.error.config.invalid.connections.same-name':
    '« connections » dans {file} : le nom « {name} » est donné à deux connexions ; chaque connexion doit avoir un nom différent.',
  'cli.error.config.invalid.connections.same-inbox':
    '« connections » dans {file} : « {a} » et « {b} » ont le même dossier inbox « {inbox} » : chaque bureau a besoin du sien.',
  'cli.error.config.invalid.connections.nested-inbox':
    '« connections » dans {file} : le dossier inbox de « {a} » ({aInbox}) et celui de « {b} » ({bInbox}) sont l’un dans l’autre : une liste déposée là appartiendrait aux deux. Donnez à chaque connexion un dossier inbox séparé.',
  'cli.error.connection.not-chosen':
    'Indiquez la connexion avec --connection NOM : le fichier de configuration en définit plusieurs ({names}).',
  'cli.error.connection.none-configured':
    '--connection {name} : {file, select, none {aucun fichier de configuration n’est indiqué, donc aucune connexion n’est définie (indiquez-en un avec --config FICHIER)} other {{file} ne définit aucune connexion sous « connections »}}.',
  'cli.error.connection.unknown':
    '--connection {name} : cette connexion n’existe pas dans le fichier de configuration, qui définit : {names}.',
  'cli.error.api.token-unreadable':
    '{connection, select, none {API_TOKEN_FILE {file}} other {Le fichier de jeton de la connexion « {connection} » ({file})}} ne peut pas être lu : {reason}.',
  'cli.error.api.token-empty':
    '{connection, select, none {API_TOKEN_FILE {file}} other {Le fichier de jeton de la connexion « {connection} » ({file})}} est vide : mettez-y le jeton de l’API.',
  // A mapping that cannot be used (src/orders/mapping*.ts, columns.ts).
  'cli.error.mapping.invalid.not-file':
    '{file}, indiqué comme fichier de correspondance, n’est pas un fichier.',
  'cli.error.mapping.invalid.unreadable':
    'Le fichier de correspondance {file} ne peut pas être lu : {reason}',
  'cli.error.mapping.invalid.link':
    'Le fichier de correspondance {file} n’est pas lu : c’est un lien symbolique, et un fichier de correspondance placé à côté d’une liste n’est jamais lu via un lien. Mettez-y le fichier lui-même.',
  'cli.error.mapping.invalid.hard-link':
    'Le fichier de correspondance {file} n’est pas lu : c’est un lien physique, dont l’autre nom peut se trouver hors du dossier. Copiez-y le fichier au lieu de créer un lien.',
  'cli.error.mapping.invalid.not-regular':
    'Le fichier de correspondance {file} ne peut pas être lu : ce n’est pas un fichier ordinaire.',
  'cli.error.mapping.invalid.too-big':
    'Le fichier de correspondance {file} dépasse {kb} Ko, bien plus qu’il n’en faut : est-ce bien le bon fichier ?',
  'cli.error.mapping.invalid.json':
    'Le fichier de correspondance {file} n’est pas du JSON valide : {mistake}. Un fichier de correspondance ressemble à ceci : \'{ "columns": { "Straat": "address1" } }\'.',
  'cli.error.mapping.invalid.nesting':
    'Le fichier de correspondance {file} imbrique des objets ou des listes sur plus de {levels} niveaux, alors qu’il en faut trois au plus, comme dans \'{ "columns": { "Straat": "address1" } }\' : est-ce bien le bon fichier ?',
  'cli.error.mapping.invalid.not-object':
    'Le fichier de correspondance {file} doit contenir un objet JSON, comme \'{ "columns": { "Straat": "address1" } }\' (ou la forme simple \'{ "Straat": "address1" }\').',
  'cli.error.mapping.invalid.stray':
    'Fichier de correspondance {file} : {key} n’a pas sa place ici (seuls « columns », « values » et « worksheet » sont admis) ; un nom de colonne se met sous « columns », comme \'{ "columns": {\' {key}: "address1" \'} }\'.',
  'cli.error.mapping.invalid.columns':
    'Fichier de correspondance {file} : « columns » doit être un objet qui associe vos noms de colonnes aux champs qu’elles contiennent, comme \'{ "Straat": "address1" }\'.',
  'cli.error.mapping.invalid.worksheet':
    'Fichier de correspondance {file} : « worksheet » doit être le nom d’une feuille du classeur, sous forme de texte.',
  'cli.error.mapping.invalid.values':
    'Fichier de correspondance {file} : « values » doit être un objet qui donne, pour chaque champ, vos mots pour ses valeurs, comme \'{ "contact_language": { "Nederlands": "nl" } }\'.',
  'cli.error.mapping.invalid.values-twice':
    'Fichier de correspondance {file} : « values » mentionne {field} deux fois ; ne gardez qu’une de ces entrées.',
  'cli.error.mapping.invalid.values-field':
    'Fichier de correspondance {file} : « values » mentionne {name}, {known, select, yes {qui n’accepte pas de synonymes de valeurs} other {qui n’est pas un champ de commande}} ; les synonymes ne valent que pour {fields}.',
  'cli.error.mapping.invalid.words':
    'Fichier de correspondance {file} : sous « values », {name} doit être un objet qui associe vos mots aux valeurs qu’ils représentent, comme \'{ "Nederlands": "nl" }\'.',
  'cli.error.mapping.invalid.empty-word':
    'Fichier de correspondance {file} : sous « values », {name} contient un mot vide ; indiquez le mot tel qu’il est écrit dans la liste.',
  'cli.error.mapping.invalid.not-allowed':
    'Fichier de correspondance {file} : sous « values », {name} traduit {word} par {target}, valeur que {field} n’accepte pas ({problem}).',
  'cli.error.mapping.invalid.word-twice':
    'Fichier de correspondance {file} : sous « values », {name} donne {word} deux fois (majuscules et espaces ne comptent pas), pour deux valeurs différentes ; n’en gardez qu’une.',
  'cli.error.mapping.invalid.flat-not-object':
    'Le fichier de correspondance {file} doit contenir un objet JSON, comme \'{ "Straat": "address1" }\'.',
  'cli.error.mapping.invalid.not-field':
    'Fichier de correspondance {file} : {column} renvoie à {target}, qui n’est pas un champ de commande ; {like, select, none {utilisez l’un de ces champs} other {vouliez-vous dire {like} ? Les champs sont}} : {fields}.',
  'cli.error.mapping.invalid.mapped-twice':
    'Fichier de correspondance {file} : la colonne {column} y figure deux fois ; ne la gardez qu’une fois.',
  'cli.error.mapping.invalid.both-give':
    'les colonnes « {first} » et « {second} » indiquent toutes deux {field} : n’en gardez qu’une.',
  // status's targets, and a report folder it cannot use.
  'cli.error.status.target-unknown':
    '{target} n’est ni un dossier de rapport (un dossier contenant summary.json et report.csv), ni un identifiant de liste.',
  'cli.error.status.not-a-report-folder':
    '{target} n’est pas un dossier de rapport : il lui manque summary.json ou report.csv.',
  'cli.error.status.target-missing': '{target} n’existe pas.',
  'cli.error.status.no-report':
    'Aucun rapport de la liste {sheetId} dans {dir} (REPORTS_DIR) : indiquez l’identifiant de liste tel qu’il figure dans summary.json, ou un dossier de rapport.',
  'cli.error.report-folder.unusable.too-big':
    '{file} fait {mib} Mio, au-delà des {limit} Mio qu’order-importer lit pour un fichier de rapport : il n’est pas lu.',
  'cli.error.report-folder.unusable.summary-json':
    '{dir} : son summary.json n’est pas du JSON valide ({reason}).',
  'cli.error.report-folder.unusable.summary-foreign':
    '{dir} : son summary.json n’a pas été écrit par order-importer.',
  'cli.error.report-folder.unusable.csv': '{file} ne peut pas être lu ({reason}).',
  'cli.error.report-folder.unusable.no-report': '{dir} ne contient pas de report.csv.',
  'cli.ledger.skipped.link': '{path} est un lien : il n’est pas suivi.',
  'cli.ledger.skipped.creates-link':
    '{file} n’est pas un fichier à part entière (un lien ?) : il n’est pas lu.',
  'cli.ledger.skipped.creates-lines':
    '{file} : {count, plural, one {# ligne illisible} other {# lignes illisibles}}.',
  'cli.ledger.unkeyed':
    '{count, plural, one {# ligne} other {# lignes}} de la liste {sheetId} ({dir}) {count, plural, one {n’a pas pu être inscrite} other {n’ont pas pu être inscrites}} au registre des doublons : {why} ; si vous réimportez la liste, {count, plural, one {cette ligne pourrait être créée} other {ces lignes pourraient être créées}} une seconde fois.',
  'cli.ledger.unkeyed.no-reason': 'raison inconnue',

  // `--help`
  'cli.help.program.description':
    'Transforme des listes de commandes en commandes de contrôle immobilier via l’API de l’Order and File Service.',
  'cli.help.heading.usage': 'Utilisation :',
  'cli.help.heading.arguments': 'Arguments :',
  'cli.help.heading.options': 'Options :',
  'cli.help.heading.commands': 'Commandes :',
  'cli.help.usage.options': '[options]',
  'cli.help.usage.command': '[commande]',
  'cli.help.help': 'afficher l’aide',
  'cli.help.version': 'afficher la version et quitter',
  'cli.help.after-error': '(relancez avec --help pour afficher l’aide)',
  'cli.help.sheets':
    'listes : classeurs Excel (.xlsx, .xlsm), CSV (.csv), JSON (.json) ou NDJSON (.ndjson, .jsonl)',
  'cli.help.where-to':
    'Où vont les commandes : API_BASE_URL avec API_TOKEN ou API_TOKEN_FILE, dans l’environnement ou\nle fichier --config ; sans API_BASE_URL, l’environnement de test intégré. Plusieurs bureaux :\n« connections » dans le fichier --config. Redis : REDIS_URL (sinon 127.0.0.1:6379, sinon son\npropre redis-server). Tous les paramètres : docs/reference.md.',
  'cli.help.option.config': 'fichier de configuration JSON des paramètres',
  'cli.help.option.mapping':
    'fichier de correspondance JSON entre vos noms de colonnes (et vos mots pour les valeurs) et ceux de l’API, p. ex. \'{ "columns": { "Straat": "address1" } }\' ; sinon, le mapping.json à côté de la liste, puis « mapping » dans le fichier de configuration',
  'cli.help.option.connection':
    'la connexion à utiliser parmi celles du fichier de configuration (son API, son jeton et son fichier de correspondance) ; obligatoire s’il en définit plusieurs',
  'cli.help.option.json':
    'afficher un résumé JSON par liste sur stdout (les messages vont sur stderr)',
  'cli.help.import.description':
    'Importer des listes : créer une commande par ligne valable, avec ses pièces jointes, puis écrire un rapport par liste. Code de sortie : 0 si tout est créé ou en doublon, 2 si des lignes sont non valables, en échec ou à vérifier, 1 en cas d’erreur fatale.',
  'cli.help.import.no-workers':
    'seulement mettre les listes en file d’attente, puis attendre : des processus `order-importer worker` font le travail',
  'cli.help.import.allow-duplicates': 'créer des commandes même pour des lignes déjà importées',
  'cli.help.watch.description':
    'Surveiller le dossier inbox : importer chaque liste déposée dans INBOX_DIR (et dans les dossiers des planifications) et lancer le tableau de bord, jusqu’à l’arrêt (SIGINT/SIGTERM).',
  'cli.help.watch.no-dashboard': 'ne pas lancer le tableau de bord',
  'cli.help.worker.description':
    'Lancer uniquement des workers, pour répartir la charge : autant de processus que vous voulez, sur des machines qui partagent le même Redis.',
  'cli.help.ledger.description':
    'ledger rebuild : quand Redis a perdu ses données (redémarrage sans AOF), reconstruire le registre des doublons de chaque connexion à partir des rapports (REPORTS_DIR) et du journal des créations (DATA_DIR/creates), pour que les lignes déjà importées soient à nouveau reconnues comme doublons ; d’ici là, les importations sont refusées. Code de sortie : 0 si le registre est reconstruit, 1 en cas d’erreur fatale.',
  'cli.help.ledger.argument': '« rebuild » : reconstruire le registre',
  'cli.help.ledger.connection':
    'ne reconstruire que cette connexion du fichier de configuration (par défaut : toutes)',
  'cli.help.dashboard.description':
    'Lancer uniquement le tableau de bord (vue d’ensemble des importations, files d’attente, /healthz, /readyz, /metrics) pour les processus watch et worker qui partagent le même Redis ; il n’importe rien lui-même.',
  'cli.help.status.description':
    'Relire auprès de l’API les commandes des listes importées (chacune avec le jeton de sa connexion) et les écrire dans le status.csv de chaque rapport. Code de sortie : 0 si tout a été lu, 2 si une commande ou une liste n’a pas pu être lue, 1 en cas d’erreur fatale.',
  'cli.help.status.argument':
    'dossiers de rapport ou identifiants de liste ; sans argument : toutes les listes dont le rapport date des STATUS_DAYS derniers jours, sauf celles dont toutes les commandes ont un statut définitif (STATUS_FINAL)',
  'cli.help.status.json':
    "afficher ['{ sheetId, orders, byStatus, changed }'] sur stdout (les messages vont sur stderr)",
  'cli.help.validate.description':
    'Essai à blanc : lire les listes, faire correspondre leurs colonnes, les valider et vérifier leurs pièces jointes, sans appeler l’API. Code de sortie : 0 si tout est valable, 2 si des lignes sont non valables, 1 en cas d’erreur fatale.',
  'cli.help.sandbox.description':
    'Lancer l’environnement de test de l’Order and File Service au premier plan et afficher son URL de base et ses jetons.',
  'cli.help.notes':
    '{help} ({notes, select, env {variable {env}} default {par défaut {shown}} other {variable {env} ; par défaut {shown}}})',
  'cli.help.setting.apiBaseUrl': 'URL de base de l’Order and File Service',
  'cli.help.setting.apiToken': 'jeton d’accès (bearer)',
  'cli.help.setting.apiTokenFile': 'fichier contenant le jeton d’accès',
  'cli.help.setting.redisUrl':
    'Redis des files d’attente : redis://hôte:port, rediss:// par TLS, un ensemble Sentinel sous la forme redis+sentinel://hôte:port[,hôte:port…]/<nom du maître>, un Cluster sous la forme redis+cluster://hôte:port[,hôte:port…] ; un utilisateur ACL sous la forme utilisateur:mot-de-passe@ devant l’hôte',
  'cli.help.setting.dataDir':
    'dossier racine des données (inbox/, work/, archive/, reports/, failed/, sheets/ ; sandbox/ et redis/ s’ils sont intégrés)',
  'cli.help.setting.inboxDir': 'dossier surveillé (inbox)',
  'cli.help.setting.inboxPolling':
    'vérifier le dossier inbox à intervalles réguliers au lieu d’attendre les notifications du système de fichiers (partages réseau)',
  'cli.help.setting.inboxStableMs':
    'durée, en ms, pendant laquelle une liste doit rester inchangée avant d’être prise en charge',
  'cli.help.setting.reportsDir': 'dossier des rapports',
  'cli.help.setting.productsFile': 'catalogue des produits (JSON)',
  'cli.help.setting.concurrency': 'lignes traitées à la fois, par processus',
  'cli.help.setting.apiRateLimit':
    'nombre maximal de requêtes à l’API par minute, tous workers confondus',
  'cli.help.setting.apiTimeoutMs': 'délai maximal par requête, en ms',
  'cli.help.setting.apiWaitS': 'temps d’attente au démarrage si l’API est absente ou surchargée',
  'cli.help.setting.redisWaitS':
    'temps pendant lequel `import` attend Redis s’il ne répond plus, avant de s’arrêter',
  'cli.help.setting.ledgerDays':
    'durée pendant laquelle le registre des doublons garde une ligne importée',
  'cli.help.setting.statusDays':
    '`status` (et l’actualisation planifiée) relit les listes dont le rapport date d’au plus ce nombre de jours',
  'cli.help.setting.statusSyncCron':
    'quand `watch` relit les commandes des STATUS_DAYS derniers jours (cron à 5 champs, ou 6 avec les secondes ; « off » : jamais)',
  'cli.help.setting.statusFinal':
    'statuts de commande définitifs, séparés par des virgules : une liste dont toutes les commandes ont l’un de ces statuts n’est plus relue, ni par l’actualisation planifiée ni par `status` sans argument',
  'cli.help.setting.maxAttachmentMb': 'taille maximale acceptée par pièce jointe, en Mo',
  'cli.help.setting.dashboardHost':
    'adresse d’écoute du tableau de bord (hors loopback, DASHBOARD_USER et DASHBOARD_PASSWORD sont obligatoires)',
  'cli.help.setting.dashboardPort': 'port d’écoute du tableau de bord',
  'cli.help.setting.dashboardHosts':
    'noms d’hôte, séparés par des virgules, auxquels le tableau de bord répond en plus de localhost, 127.0.0.1, ::1 et --host ; tous les autres sont refusés',
  'cli.help.setting.metricsPort':
    'port sur lequel `worker` expose /metrics, /healthz et /readyz (non défini : aucun)',
  'cli.help.setting.metricsHost': 'adresse d’écoute du serveur de METRICS_PORT',
  'cli.help.setting.dashboardUser': 'nom d’utilisateur du tableau de bord',
  'cli.help.setting.dashboardPassword': 'mot de passe du tableau de bord',
  'cli.help.setting.language':
    'langue des textes à lire : nl, fr ou en (le journal reste en anglais)',
  'cli.help.setting.logLevel': 'niveau de journalisation',
  'cli.help.setting.queuePrefix':
    "préfixe de chaque clé Redis ; un '{hash tag}' les garde dans le même slot de Redis Cluster",
  'cli.help.setting.rowAttempts':
    'nombre de tentatives pour une ligne avant qu’elle passe en échec',
  'cli.help.setting.retryDelayMs':
    'délai avant le premier nouvel essai d’une ligne, en ms (doublé à chaque essai, avec une part aléatoire)',
  'cli.help.setting.embeddedSandboxPlanningS':
    'sans API_BASE_URL : l’environnement de test intégré planifie chaque commande (dates, techniciens, nouveau statut) ce nombre de secondes après sa création ; 0 : jamais',
  'cli.help.setting.jobLockMs':
    'durée pendant laquelle un worker garde une tâche avant qu’elle soit considérée comme bloquée et reprise par un autre worker',
  'cli.help.setting.notifyWebhookUrl':
    'adresse à laquelle les événements (sheet.done, sheet.unreadable, orders.changed) sont envoyés en JSON (POST)',
  'cli.help.setting.notifyWebhookSecret':
    'secret qui signe le corps de chaque webhook : X-Order-Importer-Signature: sha256=<HMAC-SHA256 du corps>',
  'cli.help.setting.notifyEmailTo':
    'adresses, séparées par des virgules, qui reçoivent un e-mail par événement (avec NOTIFY_EMAIL_FROM et SMTP_URL)',
  'cli.help.setting.notifyEmailFrom': 'expéditeur de ces e-mails',
  'cli.help.setting.smtpUrl':
    'serveur SMTP de ces e-mails : smtp://user:password@host:587 ou smtps://… (ses identifiants ne sont jamais affichés)',
  'cli.help.setting.notifyRetryHours':
    'durée pendant laquelle on réessaie d’envoyer une notification qui n’a pas pu être remise',
  'cli.help.setting.sandboxHost': 'adresse d’écoute de l’environnement de test',
  'cli.help.setting.sandboxPort':
    'port d’écoute de l’environnement de test, 0 pour un port libre quelconque',
  'cli.help.setting.sandboxDataDir': 'dossier où conserver les commandes et les fichiers',
  'cli.help.setting.sandboxTokens':
    'jeton d’accès accepté et son organisation ; peut être répété (dans la variable, séparés par des virgules)',
  'cli.help.setting.sandboxRateLimit': 'nombre de requêtes par fenêtre et par jeton, au-delà : 429',
  'cli.help.setting.sandboxRateWindow': 'durée de la fenêtre de limitation des requêtes',
  'cli.help.setting.sandboxPostMaxSize':
    'post_max_size de PHP : un corps plus grand reçoit une réponse 413 en JSON',
  'cli.help.setting.sandboxProxyBodyLimit':
    'limite d’un proxy frontal : un corps plus grand reçoit la page 413 en HTML de nginx (valeur de nginx : 1M)',
  'cli.help.setting.sandboxUploadMaxFilesize':
    'upload_max_filesize de PHP : un fichier plus grand reçoit 422 « failed to upload » (valeur de PHP : 2M)',
  'cli.help.setting.sandboxMaxFileUploads':
    'max_file_uploads de PHP : les fichiers au-delà sont ignorés sans avertissement (valeur de PHP : 20)',
  'cli.help.setting.sandboxPhpDefaults':
    'appliquer les limites par défaut de PHP là où rien n’est indiqué : upload_max_filesize 2M, max_file_uploads 20, post_max_size 8M',
  'cli.help.setting.sandboxRedirectTrailingSlash':
    'répondre à /api/orders/ par la redirection 301 d’Apache vers /api/orders',
  'cli.help.setting.sandboxQuirks':
    'renvoyer les commandes consultées sans les particularités documentées',
  'cli.help.setting.sandboxPlanning':
    'planifier chaque commande ce nombre de secondes après sa création : une date et un technicien par contrôle, et un nouveau statut (scheduled, quelques cancelled, plus tard done) ; 0 : jamais',
  'cli.help.setting.sandboxSeed': 'graine (seed) des pannes simulées et de la planification',
  'cli.help.setting.sandboxLatency': 'délai ajouté à chaque requête à l’API',
  'cli.help.setting.sandboxJitter': 'délai supplémentaire aléatoire, jusqu’à cette valeur',
  'cli.help.setting.sandboxP503': 'probabilité d’un 503 avec Retry-After avant tout traitement',
  'cli.help.setting.sandboxRetryAfter': 'Retry-After des 503 simulés',
  'cli.help.setting.sandboxPResetBefore':
    'probabilité d’une connexion coupée avant tout traitement',
  'cli.help.setting.sandboxP500After':
    'probabilité d’un 500 après l’enregistrement d’une commande ou d’un fichier',
  'cli.help.setting.sandboxPResetAfter':
    'probabilité d’une connexion coupée après l’enregistrement d’une commande ou d’un fichier',
  'cli.help.default.apiBaseUrl': 'non défini : l’environnement de test intégré',
  'cli.help.default.apiToken':
    'le jeton de démonstration de l’environnement de test, quand celui-ci est utilisé',
  'cli.help.default.redisUrl': 'redis://127.0.0.1:6379, sinon son propre redis-server',
  'cli.help.default.inboxPolling': 'désactivé : notifications du système de fichiers',
  'cli.help.default.apiRateLimit':
    'déduit des en-têtes X-RateLimit-* de l’API ; les réponses 429 sont respectées dans tous les cas',
  'cli.help.default.dashboardHosts': 'seulement ceux-là',
  'cli.help.default.language': 'celle de LANGUAGE, LC_ALL, LC_MESSAGES ou LANG, sinon en',
  'cli.help.default.notifyWebhookUrl': 'aucune',
  'cli.help.default.notifyWebhookSecret': 'pas de signature',
  'cli.help.default.notifyEmailTo': 'aucune',
  'cli.help.default.sandboxDataDir': 'en mémoire',
  'cli.help.default.sandboxTokens': 'le jeton de démonstration {token}',
  'cli.help.default.sandboxRateLimit': 'aucune limite',
  'cli.help.default.sandboxProxyBodyLimit': 'désactivée',
  'cli.help.default.sandboxUploadMaxFilesize': 'désactivée',
  'cli.help.default.sandboxMaxFileUploads': 'désactivée',
  'cli.help.default.sandboxPlanning': 'jamais',
  'cli.commander.unknownOption':
    'erreur\u202f: option inconnue «\u202f{flag}\u202f»{suggestion, select, none {} other {\n(Vouliez-vous dire {suggestion}\u202f?)}}',
  'cli.commander.unknownCommand':
    'erreur\u202f: commande inconnue «\u202f{command}\u202f»{suggestion, select, none {} other {\n(Vouliez-vous dire {suggestion}\u202f?)}}',
  'cli.commander.missingArgument': 'erreur\u202f: l’argument «\u202f{argument}\u202f» est manquant',
  'cli.commander.optionMissingArgument':
    'erreur\u202f: il manque une valeur à l’option «\u202f{option}\u202f»',
  'cli.commander.excessArguments':
    'erreur\u202f: trop d’arguments\u202f: {expected, plural, one {# argument attendu} other {# arguments attendus}}, {got, plural, one {# reçu} other {# reçus}}.',
  'cli.status.nobody-told':
    'Des commandes ont changé dans {count, plural, one {# liste} other {# listes}}, et personne n’a été prévenu\u202f: aucune notification n’est configurée pour leur bureau (NOTIFY_WEBHOOK_URL, ou NOTIFY_EMAIL_TO avec NOTIFY_EMAIL_FROM et SMTP_URL, dans l’environnement ou le fichier de configuration\u202f; ou un «\u202fnotify\u202f» dans la connexion du bureau). Les changements figurent dans le status.csv de chaque rapport.',
  'cli.status.told':
    'Notification orders.changed envoyée pour {count, plural, one {# liste} other {# listes}}.',
  'cli.error.config.invalid.office-email':
    'la connexion «\u202f{name}\u202f» a ses propres destinataires dans «\u202fnotify.email\u202f», et ses e-mails nécessitent NOTIFY_EMAIL_FROM et SMTP_URL (l’expéditeur et le serveur SMTP par lesquels passent les e-mails de chaque bureau)\u202f: définissez les deux, ou retirez «\u202femail\u202f» de son «\u202fnotify\u202f».',
  'cli.help.setting.inspectionMinutes':
    'durée d’un contrôle dans les agendas (.ics, les abonnements des bureaux), en minutes',
  'cli.error.dashboard.users-invalid.unreadable':
    'DASHBOARD_USERS_FILE {file} ne peut pas être lu ({reason}).',
  'cli.error.dashboard.users-invalid.too-large':
    'DASHBOARD_USERS_FILE {file} dépasse 1 Mo\u202f: ce n’est pas un fichier d’utilisateurs.',
  'cli.error.dashboard.users-invalid.json':
    'DASHBOARD_USERS_FILE {file} n’est pas du JSON valable ({mistake}).',
  'cli.error.dashboard.users-invalid.not-list':
    'DASHBOARD_USERS_FILE {file} doit contenir une liste JSON d’utilisateurs, chacun avec «\u202fuser\u202f», «\u202fpassword\u202f» et «\u202foffices\u202f» (une liste de bureaux, ou "*").',
  'cli.error.dashboard.users-invalid.entry':
    'DASHBOARD_USERS_FILE {file}, entrée {entry}\u202f: doit être un objet avec «\u202fuser\u202f», «\u202fpassword\u202f» et «\u202foffices\u202f», rien d’autre.',
  'cli.error.dashboard.users-invalid.user':
    'DASHBOARD_USERS_FILE {file}, entrée {entry}\u202f: «\u202fuser\u202f» doit être un nom de 1 à 100 caractères, sans ":".',
  'cli.error.dashboard.users-invalid.offices':
    'DASHBOARD_USERS_FILE {file}, entrée {entry} ({user})\u202f: «\u202foffices\u202f» doit être une liste de noms de bureaux, ou "*".',
  'cli.error.dashboard.users-invalid.password':
    'DASHBOARD_USERS_FILE {file}, entrée {entry} ({user})\u202f: «\u202fpassword\u202f» n’est pas un hachage au format qu’écrit order-importer dashboard-user\u202f: {problem}.',
  'cli.error.dashboard.users-invalid.duplicate':
    'DASHBOARD_USERS_FILE {file}, entrée {entry} ({user})\u202f: cet utilisateur figure déjà à l’entrée {earlier}.',
  'cli.error.dashboard-user.no-file':
    'order-importer dashboard-user écrit dans DASHBOARD_USERS_FILE\u202f: faites pointer ce paramètre (dans l’environnement ou le fichier de configuration) vers le fichier où le tableau de bord lit ses utilisateurs.',
  'cli.error.dashboard-user.no-offices':
    'l’utilisateur {user} est nouveau\u202f: indiquez avec --offices les bureaux qu’il voit (noms de connexions séparés par des virgules, ou "*" pour tous).',
  'cli.error.dashboard-user.bad-offices':
    '--offices {offices}\u202f: indiquez des noms de bureaux (les noms des connexions) séparés par des virgules, ou "*" pour tous.',
  'cli.error.dashboard-user.bad-name':
    'nom d’utilisateur {user}\u202f: de 1 à 100 caractères, sans ":".',
  'cli.error.dashboard-user.no-password':
    'aucun mot de passe n’a été fourni sur l’entrée standard.',
  'cli.error.dashboard-user.short-password':
    'le mot de passe est trop court\u202f: au moins {min} caractères.',
  'cli.error.dashboard-user.mismatch':
    'les deux mots de passe ne correspondent pas\u202f: rien n’a été écrit.',
  'cli.help.dashboard-user.description':
    'Ajouter un utilisateur du tableau de bord à DASHBOARD_USERS_FILE, ou modifier son mot de passe ou ses bureaux\u202f; le mot de passe est demandé (ou lu sur l’entrée standard si celle-ci n’est pas un terminal).',
  'cli.help.dashboard-user.argument': 'l’identifiant de l’utilisateur',
  'cli.help.dashboard-user.offices':
    'les bureaux que l’utilisateur voit\u202f: noms de connexions séparés par des virgules, ou "*" pour tous (et /queues, /metrics)\u202f; inchangés si l’option est omise',
  'cli.help.setting.dashboardUsersFile':
    'les utilisateurs du tableau de bord et les bureaux que chacun voit (JSON, écrit par order-importer dashboard-user)\u202f; remplace DASHBOARD_USER/DASHBOARD_PASSWORD',
  'cli.dashboard-user.password': 'Mot de passe de {user}\u202f:',
  'cli.dashboard-user.again': 'Répétez le mot de passe\u202f:',
  'cli.dashboard-user.written':
    'Utilisateur du tableau de bord {user} {done, select, added {ajouté à} other {modifié dans}} {file}\u202f: voit {all, select, yes {tous les bureaux, /queues et /metrics} other {{offices}}}.',
  // A dashboard open to other machines without a password, refused before anything starts.
  'cli.error.dashboard.exposed':
    'le tableau de bord écouterait sur {host}, joignable depuis d’autres machines, sans mot de passe\u202f: définissez DASHBOARD_USER et DASHBOARD_PASSWORD, ou DASHBOARD_USERS_FILE (ou DASHBOARD_HOST=127.0.0.1).',
  'cli.error.dashboard.exposed.proxied':
    'le tableau de bord serait joignable sous {hosts} (DASHBOARD_HOSTS\u202f: par un proxy, depuis d’autres machines) sans mot de passe\u202f: définissez DASHBOARD_USER et DASHBOARD_PASSWORD, ou DASHBOARD_USERS_FILE.',

  // purge and retention
  'cli.help.setting.retentionDays':
    '`watch` supprime une fois par jour chaque liste dont le rapport date de plus de ce nombre de jours (rapport, archive, copies et données ; 0 les garde pour toujours)',
  'cli.help.purge.description':
    'Supprimer les données personnelles des listes dont le rapport date d’avant une date : leurs dossiers de rapport, leurs copies archivées et de travail, et leurs données dans Redis (des connexions de cette configuration uniquement ; une liste en cours d’importation n’est jamais supprimée). Le registre des doublons reste : leurs lignes importées à nouveau sont toujours des doublons. Code de sortie : 0 si c’est fait, 1 en cas d’erreur fatale.',
  'cli.help.purge.before':
    'supprimer les listes dont le rapport date d’avant ce jour (AAAA-MM-JJ, ou une heure ISO)',
  'cli.help.purge.connection':
    'uniquement les listes de cette connexion du fichier de configuration (par défaut : toutes)',
  'cli.help.purge.dry-run': 'dire ce qui serait supprimé, sans rien supprimer',
  'cli.purge.sheet':
    'Liste {name} ({sheetId}, bureau {office}, rapport du {finished}) {dry, select, yes {serait supprimée} other {supprimée}} : {folders, plural, one {# dossier} other {# dossiers}} et {records, plural, one {# donnée} other {# données}} dans Redis.',
  'cli.purge.refused':
    'Laissé tel quel : {path} (ce n’est pas le dossier propre à cette liste dans REPORTS_DIR ou DATA_DIR, ou c’est un lien).',
  'cli.purge.done':
    '{count, plural, one {# liste} other {# listes}} dont le rapport date d’avant le {before} {dry, select, yes {{count, plural, one {serait supprimée} other {seraient supprimées}}} other {{count, plural, one {supprimée} other {supprimées}}}} ; le registre des doublons les connaît toujours comme importées.',
  'cli.retention.pass':
    'Conservation (RETENTION_DAYS={days}) : les listes dont le rapport date d’avant le {before} sont supprimées.',
  'cli.error.purge.bad-date':
    'order-importer purge --before {date} : ce n’est pas une date (écrivez-la comme 2025-01-31).',
  'cli.error.dashboard.port-unavailable.port':
    'Le tableau de bord ne peut pas écouter sur {host}:{port} ({code})\u202f: définissez DASHBOARD_PORT ou --port.',
  'cli.error.dashboard.port-unavailable.no-dashboard':
    'Le tableau de bord ne peut pas écouter sur {host}:{port} ({code})\u202f: définissez DASHBOARD_PORT, ou utilisez --no-dashboard.',
  'cli.error.metrics.port-unavailable':
    'METRICS_PORT\u202f: impossible d’écouter sur {host}:{port} ({code})\u202f: choisissez un autre port (ou METRICS_HOST).',
  'cli.error.sandbox.port-unavailable':
    'Impossible d’écouter sur {host}:{port} ({code})\u202f: choisissez un autre --port.',
  'cli.error.inbox.symbolic-link':
    'Le dossier inbox de la connexion «\u202f{name}\u202f» ({dir}) est un lien symbolique\u202f: le dossier surveillé ne suit aucun lien. Faites-en un vrai dossier, ou faites pointer INBOX_DIR vers le partage.',
  'cli.error.connections.same-api':
    'Les connexions «\u202f{a}\u202f» et «\u202f{b}\u202f» ont la même API ({url}) et le même jeton\u202f: c’est une seule connexion, une seule organisation. Donnez-leur une seule entrée (chaque sous-dossier de son dossier inbox peut avoir son propre mapping.json), ou à chaque bureau son propre jeton.',
  'cli.error.schedule.invalid.cron':
    'planification «\u202f{name}\u202f»\u202f: «\u202f{cron}\u202f» n’est pas une expression cron ({problem}).',
  'cli.error.schedule.invalid.unknown':
    'aucune planification «\u202f{name}\u202f» ici\u202f: son analyse relève d’un autre processus',
  'cli.error.schedule.invalid.other-inbox':
    'La planification «\u202f{name}\u202f» de la connexion «\u202f{office}\u202f» parcourt {dir}, qui mène au dossier inbox de «\u202f{other}\u202f» ({otherDir})\u202f: les listes de ce bureau seraient envoyées avec le jeton de «\u202f{office}\u202f». Donnez à la planification son propre dossier.',
  'cli.error.status.schedule-invalid':
    'STATUS_SYNC_CRON «\u202f{cron}\u202f» n’est pas une expression cron ({problem}).',
  'cli.error.installation.marker-unusable.vanished': '{path} a disparu pendant son écriture.',
  'cli.error.installation.marker-unusable.link':
    '{path} est un lien\u202f: ce doit être un fichier à part entière.',
  'cli.error.installation.marker-unusable.damaged':
    '{path} est endommagé\u202f: il identifie ce dossier de données et n’est donc jamais modifié à la main\u202f; restaurez-le depuis une sauvegarde, ou supprimez-le si ce dossier de données n’a jamais servi avec un Redis.',
  'cli.error.catalogue.invalid.entry':
    'Catalogue de produits {source}\u202f: entrée {entry} {problem}\u202f; attendu\u202f: une liste JSON de \'{ "id", "name", "category" }\'.',
  'cli.error.catalogue.invalid.empty':
    'Catalogue de produits {source}\u202f: le fichier doit contenir au moins un produit\u202f; attendu\u202f: une liste JSON de \'{ "id", "name", "category" }\'.',
  'cli.error.catalogue.invalid.not-list':
    'Catalogue de produits {source}\u202f: le fichier n’est pas une liste valable ({problem})\u202f; attendu\u202f: une liste JSON de \'{ "id", "name", "category" }\'.',
  'cli.error.catalogue.invalid.repeated':
    'Catalogue de produits {source}\u202f: l’entrée {entry} répète l’identifiant de produit «\u202f{id}\u202f».',
  'cli.error.catalogue.invalid.unreadable':
    'Le catalogue de produits {file} ne peut pas être lu\u202f: {reason}',
  'cli.error.catalogue.invalid.json':
    'Le catalogue de produits {file} n’est pas un JSON valable\u202f: {mistake}',
  'cli.error.api.token-unfit':
    '{source, select, variable {API_TOKEN} file {API_TOKEN_FILE {file}} other {Le fichier de jeton de la connexion «\u202f{connection}\u202f» ({file})}} contient {character, select, line_break {un saut de ligne} other {un caractère qu’un en-tête de requête ne peut pas porter ({character})}} au milieu du jeton, et aucune requête ne peut donc l’envoyer\u202f: laissez le jeton seul sur une ligne (un saut de ligne à la fin est permis).',
  'cli.error.api.wait-stopped': 'Arrêté pendant l’attente de l’API à {url}.',
  'cli.error.sandbox.identity-unreadable':
    '{file} ne contient pas d’identifiant d’environnement de test\u202f: supprimez-le (l’environnement de test qui s’y trouve est alors considéré comme nouveau).',
  'cli.error.status.api-unusable.auth':
    'L’API refuse le jeton ({reason})\u202f: vérifiez API_TOKEN / API_TOKEN_FILE, ou le fichier de jeton de la connexion.',
  'cli.error.status.api-unusable.config':
    'L’API n’est pas là où les réglages l’indiquent ({reason})\u202f: vérifiez API_BASE_URL, ou l’apiBaseUrl de la connexion.',
  'cli.stop.reason.auth':
    'l’API refuse le jeton ({detail})\u202f: vérifiez API_TOKEN / API_TOKEN_FILE. L’importation est en pause\u202f; plus rien n’est envoyé.',
  'cli.stop.reason.config':
    'l’API n’est pas là où les réglages l’indiquent ({detail})\u202f: vérifiez API_BASE_URL. L’importation est en pause\u202f; plus rien n’est envoyé.',
  'cli.error.machine.access':
    '{folder} : ce processus n’a pas le droit d’y écrire ({code}). Donnez à l’utilisateur sous lequel il tourne le droit d’écrire dans ce dossier (chown ou chmod), ou faites pointer DATA_DIR (ou le réglage propre à ce dossier) vers un dossier où il peut écrire.',
  'cli.error.machine.full':
    'le disque de {folder} est plein ({code}) : libérez de la place, ou déplacez le dossier vers un disque plus grand, puis relancez.',
  'cli.error.machine.files':
    'trop de fichiers ouverts ({code}) dans {folder} : relevez la limite de fichiers ouverts (ulimit -n, ou LimitNOFILE= dans l’unité systemd), puis relancez.',
  'cli.outage.locks-lost':
    '{count, plural, one {# tâche a perdu son verrou} other {# tâches ont perdu leur verrou}} pendant l’absence de Redis : {count, plural, one {elle est reprise} other {elles sont reprises}} à partir de la dernière étape enregistrée.',
  'cli.error.purge.bad-date.future':
    'order-importer purge --before {date} : date postérieure à maintenant, toutes les listes déjà rapportées seraient supprimées ; donnez une date jusqu’à maintenant ({now} au plus tard).',
  'cli.error.machine.database':
    'le disque de {folder} est plein ({code})\u202f: l’environnement de test intégré ne peut pas y écrire sa base de données. Libérez de la place sur ce disque, ou faites pointer DATA_DIR vers un dossier sur un disque plus grand, puis relancez.',
  'cli.error.redis.unavailable.refused':
    'REDIS_URL {url} : Redis a refusé l’utilisateur et le mot de passe ({reason}) : vérifiez-les dans REDIS_URL, et que l’utilisateur est actif (ACL SETUSER … on).',
  'cli.error.redis.unavailable.certificate':
    'REDIS_URL {url} : le certificat de ce Redis n’est pas reconnu comme fiable ({reason}) : {ca, select, none {indiquez dans REDIS_TLS_CA_FILE le certificat (PEM) de l’autorité qui l’a signé} other {REDIS_TLS_CA_FILE n’est pas l’autorité qui l’a signé, ou le certificat n’est pas établi pour cet hôte}}.',
  'cli.error.redis.unavailable.no-sentinel':
    'REDIS_URL {url} : aucune sentinelle ne répond ({reason}) : démarrez les sentinelles, ou vérifiez leurs hôtes et ports dans REDIS_URL.',
  'cli.error.redis.unavailable.no-master':
    'REDIS_URL {url} : les sentinelles ne connaissent aucun maître nommé « {name} » ({known, select, none {elles n’en surveillent aucun} other {elles surveillent : {known}}}) : terminez REDIS_URL par le nom que leur `sentinel monitor` lui donne.',
  'cli.error.config.invalid.tls-ca-unreadable':
    'REDIS_TLS_CA_FILE {file} n’est pas utilisable : {reason}.',
  'cli.error.config.invalid.tls-ca-without-tls':
    'REDIS_TLS_CA_FILE est défini, mais REDIS_URL {url} ne passe pas par TLS : écrivez rediss:// (ou rediss+sentinel://), ou retirez REDIS_TLS_CA_FILE.',
  'cli.help.setting.redisTlsCaFile':
    'le certificat (PEM) de l’autorité qui a signé le certificat d’un Redis rediss://, quand aucune autorité du système ne l’a fait',
  'cli.help.default.redisTlsCaFile': 'les autorités du système',
  'cli.error.redis.unavailable.cluster':
    'REDIS_URL {url} : aucun nœud du Redis Cluster ne répond ({problem}) : démarrez le Cluster, ou vérifiez ses nœuds dans REDIS_URL.',
  'cli.error.redis.unavailable.not-cluster':
    'REDIS_URL {url} désigne un Redis Cluster, mais ses nœuds n’en sont pas un ({problem}) : indiquez un serveur unique sous la forme redis://hôte:port.',
};
