/// The fixed texts every run uses, so that runs and machines compare like for like.
enum Texts {
  /// Instructions of the `speed` session.
  static let writerInstructions = "You are a careful technical writer. Write in plain, complete sentences."

  /// The head of the `speed` prompt; ``longNotes`` follows, cut to reach the wanted prompt length.
  static let reportRequest = """
    Below are my notes from this week's planning meetings. Write a long, detailed report from \
    them: an introduction, then one section per topic with every decision and open question, then \
    a closing list of risks. Do not stop early.

    Notes:

    """

  /// Plenty of words (well over 512 tokens) for the `speed` prompt.
  static let longNotes = """
    Monday. The ferry schedule project is three weeks behind because the harbour authority changed \
    its data format without notice. Ingrid rewrote the importer over the weekend and it now reads \
    both the old and the new files, but nobody has checked the winter timetable yet, which has the \
    most exceptions. Tomasz thinks we should freeze the importer until the authority publishes a \
    written specification; Ingrid disagrees and wants to keep it flexible. We agreed to ask the \
    authority for a specification and to keep both readers until we have one.

    The mobile team reported that the offline maps now take four hundred megabytes on a phone, \
    double what they took in spring. Most of it is the new coastline layer, stored at a resolution \
    nobody needs below zoom level twelve. Priya will try a coarser layer for the lower zoom levels \
    and measure the size again. If the maps stay above three hundred megabytes, we will make the \
    coastline layer an optional download.

    Tuesday. Customer support sees a steady rise in complaints about tickets bought on the website \
    that do not show up in the app. Every case so far involves an account created with a social \
    login and later linked to an email address. The accounts end up with two identifiers and the \
    app asks for the wrong one. Marcus has a fix that merges the identifiers at login; it needs a \
    migration for about eleven thousand existing accounts, which he wants to run on a Sunday night \
    when traffic is lowest.

    Finance asked for a forecast of server costs for next year. Our traffic grew by sixty percent \
    this year, mostly in summer, and the bill grew by only twenty percent thanks to the caching \
    work in March. Elena will prepare three scenarios: flat traffic, the same growth again, and a \
    doubling if the partnership with the rail operator goes ahead. She needs the traffic numbers \
    per month from the analytics team by the end of next week.

    Wednesday. The accessibility review found that the seat map cannot be used with a screen \
    reader: seats are drawn as shapes without labels, and the legend is an image. The fix is not \
    hard but touches every booking screen. We decided to label seats with row and letter, to \
    replace the legend with text, and to test the result with two volunteers from the visually \
    impaired passengers' association before the next release.

    The design team proposed a new timetable view that groups departures by hour instead of \
    listing them. Tests with twelve people were mixed: frequent travellers liked it, occasional \
    travellers found it slower. We will ship it behind a setting, off by default, and look at how \
    many people turn it on after a month.

    Thursday. The contract with the payment provider ends in February. Their new offer is cheaper \
    per transaction but adds a monthly fee, which makes it more expensive for us in winter. Legal \
    wants two more weeks to review the liability clauses. Meanwhile Jonas will ask two other \
    providers for offers so that we have a comparison before we negotiate.

    Friday. We reviewed the incident from last Saturday, when bookings failed for forty minutes. \
    The cause was a certificate that expired on the database proxy; the monitoring checked the \
    certificates of the public servers only. We now check every certificate daily and alert thirty \
    days before expiry. We also agreed to write down who is on call during weekends, because on \
    Saturday it took twenty minutes to find someone with access to the proxy.
    """

  /// Instructions of the `grammar` and `schema` sessions.
  static let analystInstructions =
    "You analyse transcripts of voice notes. Use only what the transcript says; never invent names or tasks."

  /// The voice note the `grammar`, `schema` and `prewarm` sessions analyse.
  static let voiceNote = """
    Quick note after the call with the venue. Sofia confirmed the hall for the twelfth of June, \
    but they need the deposit by Friday, so I have to ask Daniel to pay it from the events budget. \
    Catering is still open: Sofia recommended two companies and I promised to call both tomorrow. \
    I already sent the draft programme to Amira, and she will add the speakers' names. Oh, and \
    somebody has to book the photographer; maybe Daniel again.
    """

  /// The `grammar` prompt: asks for the JSON a ``MeetingNoteAnalysis`` encodes, without a grammar.
  static let jsonRequest = """
    Analyse this voice note transcript:

    \(voiceNote)

    Reply with one JSON object and nothing else (no markdown), with exactly these keys in this \
    order: "title" (a string), "summary" (a string), "tags" (one to five short lowercase strings), \
    "people" (strings), "actionItems" (objects with "task" (a string), "owner" (a string) and \
    "isDone" (true or false)).
    """

  /// The `schema` prompt: the task alone; the schema, or only the grammar, says the shape.
  static let analysisRequest = "Analyse this voice note transcript:\n\n\(voiceNote)"

  /// Long instructions, like an app's, for `prewarm` (what prewarming evaluates ahead of time).
  static let longInstructions = """
    You analyse transcripts of personal voice notes for a note-taking app. Use only what the \
    transcript says, and never invent facts, names, dates or tasks.

    Title: a few words that name the note's main subject, without a trailing full stop.
    Summary: one or two plain sentences that someone who never heard the note would understand.
    Tags: one to five short lowercase topics, such as work, family, health, travel or money.
    People: every person the transcript names, spelled as in the transcript. Do not list the \
    speaker, and do not add people the transcript does not name.
    Action items: each distinct thing someone must do, such as a call, an email, a purchase, a \
    booking, a payment, a deadline or a follow-up. Write each as a short imperative sentence that \
    starts with a verb, name the person who does it when the transcript says so, and mark it done \
    only when the transcript says it is already done. Merge tasks that say the same thing twice.

    Transcripts come from speech recognition and may contain misheard words, missing punctuation \
    and false starts. Read past them: when a word is clearly misheard, use the word the speaker \
    meant, but when you are unsure, keep the transcript's word. Dates and amounts stay as the \
    speaker said them; do not convert them. If the note is in another language, answer in that \
    language.
    """
}
