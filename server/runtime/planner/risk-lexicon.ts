/**
 * Word lists for reading whether a goal asks for an action to be carried out (action-request.ts).
 * A risky word alone ("production", "rotated", "payment") is a topic, not a request: the gate is
 * for goals that ask to *do* something to a system (issue 10: "how many replicas run in
 * production?" was sent to human approval). Plain Sets, one hash probe per token.
 */

const set = (words: string): ReadonlySet<string> => new Set(words.split(',').map((word) => word.trim()));

/**
 * Verbs that change the state of a system, an account or a record when someone is asked to do
 * them, in base (imperative) form. Broad on purpose: an unlisted verb is read as a request for
 * information, so a gap here is a missed gate, while an extra verb only gates a real request.
 */
export const ACTION_VERBS: ReadonlySet<string> = set(
  'delete,remove,drop,truncate,purge,wipe,erase,destroy,terminate,kill,stop,halt,restart,reboot,rollback,rollout,revert,undo,' +
    'scale,rotate,revoke,disable,enable,deploy,redeploy,release,ship,migrate,failover,refund,charge,transfer,pay,wire,cancel,void,' +
    'reset,evict,drain,cordon,uninstall,install,reinstall,flush,push,merge,upgrade,downgrade,patch,apply,update,modify,change,set,' +
    'edit,alter,grant,promote,demote,suspend,block,ban,unblock,lock,unlock,provision,decommission,resize,increase,decrease,raise,' +
    'lower,bump,reduce,replace,overwrite,rename,move,execute,run,trigger,issue,approve,reprocess,replay,retry,backfill,reindex,' +
    'archive,expire,invalidate,shutdown,discharge,close,deactivate,activate,publish,unpublish,send,restore,recreate,rebuild,' +
    'reconfigure,rm,fire,dismiss,reassign,force-push,pause,resume,rerun,re-run,bounce,nuke,skip,clear,requeue,renew,repartition,' +
    'redrive,rebalance,resync,reroute,flushall,full-refresh,switch,roll,reverse,refresh,mark,register,silence,mute,snooze,' +
    'acknowledge,ack,resolve',
);

/** Verbs that act only with their particle ("roll back", "shut it down"); the particle makes them verbal, so no object is needed. */
export const PHRASAL_ACTIONS: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ['roll', set('back,out')],
  ['shut', set('down,off')],
  ['take', set('down,offline')],
  ['tear', set('down')],
  ['turn', set('off,on')],
  ['spin', set('down,up')],
  ['wipe', set('out')],
  ['clean', set('up')],
  ['fail', set('over')],
  ['scale', set('down,up,out,in')],
  ['switch', set('over,off')],
  ['force', set('push')],
  ['kick', set('off')],
]);

/** Object pronouns that may sit between a phrasal verb and its particle ("roll it back"). */
export const OBJECT_PRONOUNS: ReadonlySet<string> = set('it,them,this,that,everything,all');

/**
 * Nouns that a verb-shaped word modifies ("restart count", "release schedule", "fail over
 * procedure", "rollback command"): the verb-shaped word is then a noun, also after its particle.
 * "Run me through …", "update me on …" ask to be told, not for the verb's action.
 */
export const MODIFIED_NOUNS: ReadonlySet<string> = set(
  "count,counts,loop,loops,rate,rates,event,events,time,times,storm,storms,policy,policies,history,log,logs,error,errors," +
    'latency,spike,spikes,frequency,button,buttons,endpoint,endpoints,window,windows,note,notes,notification,notifications,' +
    'pipeline,pipelines,process,procedure,procedures,status,duration,failure,failures,issue,issues,problem,problems,question,' +
    'questions,list,summary,report,step,steps,plan,plans,checklist,runbook,runbooks,docs,documentation,guide,strategy,options,' +
    'command,commands,schedule,version,versions,path,backoff,timeout,rule,rules,semantics,behaviour,behavior,progress,contention,' +
    'management,book,me,us,through,size,freeze,setting,settings',
);

/**
 * Words right after a verb-shaped first word that show it is a noun or the subject of a statement
 * ("drop in traffic", "rollback failed", "restart count", "release notes"), not an imperative.
 */
export const NOT_AN_OBJECT: ReadonlySet<string> = new Set([
  ...set(
    'in,on,at,of,for,after,before,during,since,from,with,without,by,about,into,than,vs,versus,and,or,but,' +
      'is,are,was,were,has,have,had,will,would,can,could,should,may,might,keeps,kept,failed,fails,failing,succeeded,worked,works,' +
      "happened,took,takes,broke,hangs,hung,stuck,timed,started,finished,completed,seems,looks,caused,causes,triggered,went," +
      "did,does,helped,fixed,isn't,wasn't,doesn't,didn't,won't",
  ),
  ...MODIFIED_NOUNS,
]);

/** Words after which a goal states something happened rather than asks for it ("deploy to production failed"). */
export const STATEMENT_MARKERS: ReadonlySet<string> = set('is,are,was,were,failed,fails,failing,broke,hangs,hung,stuck,timed,took,happened,caused,went,succeeded,worked,did,does,helped,fixed,completed');

/** Politeness, urgency and command prefixes skipped before the verb ("please", "go ahead and", "kubectl"). */
export const FILLERS: ReadonlySet<string> = set('please,pls,plz,kindly,now,immediately,just,then,also,first,next,finally,quickly,urgently,asap,ahead,and,sudo,kubectl,helm,terraform,git,docker,aws,gcloud,az,psql');

/** Openers of a wh-question. */
export const WH_OPENERS: ReadonlySet<string> = set("what,why,how,when,where,which,who,whom,whose,what's,how's,where's,who's,when's,why's");

/** Auxiliaries that open a yes/no question ("is", "does", "has", "can" …). */
export const AUX_OPENERS: ReadonlySet<string> = set(
  "is,are,was,were,am,do,does,did,has,have,had,will,would,should,could,can,may,might,shall,must,isn't,aren't,wasn't,weren't,don't,doesn't,didn't,hasn't,haven't,won't,wouldn't,shouldn't,couldn't,can't",
);

/** Openers of an elliptical yes/no question ("Anything to watch out for?" for "is there anything …", "Any model changes?"). */
export const ELLIPTICAL_QUESTION_OPENERS: ReadonlySet<string> = set('any,anything');

/** Interjections before the real opener ("ok, so can you …"). */
export const INTERJECTIONS: ReadonlySet<string> = set('ok,okay,so,hey,hi,hello,alright,quick,question,um,well');
/**
 * Verbs that carry an action named by a noun ("proceed with the failover", "perform a rolling restart",
 * "please do a rolling restart"). "Do" opening a sentence opens a question and is read as one first.
 */
export const LIGHT_VERBS: ReadonlySet<string> = set('proceed,perform,initiate,do');
/** Who a goal is addressed to ("Folks, can you …", "hey team, should we …", "@oncall restart …"): skipped like an interjection. */
export const ADDRESSEES: ReadonlySet<string> = set("team,folks,everyone,everybody,guys,people,oncall,on-call,y'all,all,someone,somebody,anyone,anybody");

/** "Can you …", "could you …": a request that someone act. */
export const REQUEST_MODALS: ReadonlySet<string> = set("can,could,would,will,won't");
/** "Should we …", "can I …": asks for a go/no-go on acting; the answer is what gets acted on. */
export const DECISION_MODALS: ReadonlySet<string> = set('should,shall,can,could,may,must');
export const SPEAKERS: ReadonlySet<string> = set("i,we,i'd,we'd,i'm,we're,i'll,we'll");
/** Words between a speaker and the verb in a stated intention ("we need to", "I'm going to", "I need you to"). */
export const INTENTION_WORDS: ReadonlySet<string> = set('need,needs,want,wants,have,got,gotta,plan,intend,would,like,am,are,going,must,will,shall,should,to,you,now,just,please');
/** "Is it safe to …": a yes/no question that is a go/no-go on acting ("is it possible to …" asks what the system can do). */
export const SAFETY_WORDS: ReadonlySet<string> = set('safe,ok,okay,fine,alright');
/** "Are we clear to …", "am I good to …": said of the asker, these too ask for a go/no-go. */
export const CLEARED_WORDS: ReadonlySet<string> = set('clear,cleared,good,safe,ok,okay,fine,alright,free');
/** "Do we have the green light to …", "do I have the go-ahead to …": asking for clearance to act is a go/no-go. */
export const CLEARANCE_WORDS: ReadonlySet<string> = set('go-ahead,goahead,light,permission,clearance,sign-off,signoff,approval,ok,okay');

/**
 * What an action is done to that raises the stakes; counted only when an action is requested.
 * These were the old standalone "high-risk" cues: alone they only describe the topic.
 */
export const RISK_TARGETS: ReadonlySet<string> = set(
  'production,prod,live,database,db,table,tables,cluster,payment,payments,billing,refund,refunds,customer,customers,key,keys,' +
    'secret,secrets,credential,credentials,account,accounts,backup,backups,patient,patients,payroll,invoice,invoices,all,everything,every',
);

/** Words that sound risky; in a question they are reported as a topic, so EXPLAIN says why no gate was set. */
export const RISK_TOPICS: ReadonlySet<string> = set(
  'production,prod,payment,payments,refund,refunds,chargeback,billing,security,vulnerability,vulnerabilities,cve,exploit,breach,deletion',
);
