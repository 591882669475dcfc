import Foundation

/// How a transcriber uses a custom language model: what Whisper is told before and while it
/// decodes, and how the decoded words are written afterwards.
///
/// - `.bias(strength:)` (weight below 1): a logits filter favours the tokens that start the
///   model's rarer words (those Whisper writes as more than one token) and the tokens that continue
///   a word or phrase of the model once it has begun, by amounts that scale with `strength` (0
///   leaves only the pronunciations). The audio is decoded twice, without and with the model's
///   prompt (its graphemes and varied phrases), and the prompted words are kept only where they
///   bring in a word of the model (``PromptedTextGuard``): the prompt fixes names, but on its own
///   it also nudges unrelated words.
/// - `.restrict` (weight 1): Whisper may write only the model's commands (its phrases and template
///   expansions, one or more in a row), through whisper.cpp's grammar, primed with the commands as
///   its prompt; a final decode may not stop part-way through a command.
/// - In both modes, words that sound like a custom pronunciation are written as its grapheme, and
///   a result that is one of the model's commands is written as the model spells it and says so.
struct LanguageModelSteering: Sendable {
  /// The favouring of a term's first token at full strength, in logits.
  static let firstTokenBias: Float = 3
  /// The favouring of a term's continuing tokens at full strength, in logits.
  static let continuationBias: Float = 8
  /// The favouring of a phrase's continuing tokens at full strength, once two words are written.
  static let phraseContinuationBias: Float = 6
  /// The most terms and phrases favoured: the heaviest ones.
  static let maximumBiasedTexts = 200

  /// The model.
  let model: SpeechLanguageModel
  /// How the model is used.
  let mode: SpeechLanguageModel.Mode
  private let matcher: PronunciationMatcher?
  private let biases: [WhisperSteering.Bias]
  /// Whisper's prompt when biasing (empty when restricting).
  private let biasingPrompt: String
  /// Whisper's prompt when restricting: the commands.
  private let restrictPrompt: String?
  /// Checks a prompted decode against an unprompted one, when biasing with a prompt.
  let promptGuard: PromptedTextGuard?

  /// Steering by `model` in `mode`.
  init(model: SpeechLanguageModel, mode: SpeechLanguageModel.Mode) {
    self.model = model
    self.mode = mode
    matcher = model.vocabulary.pronunciations.isEmpty ? nil : PronunciationMatcher(model: model)
    let prompt = model.prompt()
    restrictPrompt = mode == .restrict && !prompt.isEmpty ? prompt : nil
    guard case .bias(let strength) = mode, strength > 0 else {
      biases = []
      biasingPrompt = ""
      promptGuard = nil
      return
    }
    biasingPrompt = prompt
    promptGuard = prompt.isEmpty ? nil : PromptedTextGuard(model: model)
    let scale = Float(strength)
    let terms = model.vocabulary.terms.filter { SpeechLanguageModel.isSpeakable($0.text) }
    var biases: [WhisperSteering.Bias] = terms.prefix(Self.maximumBiasedTexts).map { term in
      WhisperSteering.Bias(
        text: term.text, first: Self.firstTokenBias * scale, continuation: Self.continuationBias * scale,
        minimumPrefix: 1)
    }
    for phrase in model.phrases.lazy.filter({ SpeechLanguageModel.isSpeakable($0.text) }).prefix(
      Self.maximumBiasedTexts)
    {
      let words = phrase.text.split(separator: " ")
      guard words.count > 2 else { continue }
      biases.append(
        WhisperSteering.Bias(
          text: phrase.text, first: 0, continuation: Self.phraseContinuationBias * scale,
          minimumPrefix: words[0].count + 1 + words[1].count))
    }
    self.biases = biases
  }

  /// The text a recognizer that cannot be steered while it decodes (a transcription server)
  /// is primed with instead: the model's vocabulary and phrases when biasing, its commands when
  /// restricting; nil when there is none.
  var prompt: String? {
    switch mode {
    case .bias(let strength): strength > 0 && !biasingPrompt.isEmpty ? biasingPrompt : nil
    case .restrict: restrictPrompt
    }
  }

  /// Sets up `options` for a decode; `isFinal` is false for a volatile decode of speech still
  /// going on, which may stop part-way through a command. When biasing, `prompted` false leaves
  /// out the prompt (the unprompted decode ``promptGuard`` compares with, or a volatile decode).
  func apply(to options: inout WhisperDecodingOptions, isFinal: Bool, prompted: Bool = true) {
    switch mode {
    case .bias(let strength):
      guard strength > 0 else { return }
      if prompted, !biasingPrompt.isEmpty {
        options.initialPrompt = [options.initialPrompt, biasingPrompt].compactMap { $0 }.joined(separator: " ")
        options.carryInitialPrompt = true
      }
      if !biases.isEmpty { options.steering = WhisperSteering(biases: biases) }
    case .restrict:
      guard !model.grammar.isEmpty else { return }
      options.steering = WhisperSteering(grammar: model.grammar, requiresCompleteCommand: isFinal)
      // One segment without timestamp tokens: the grammar governs every token, and a command is
      // never split across segments. Greedy decoding: with the grammar narrowing every step a
      // beam adds little, and whisper.cpp checks the whole vocabulary against the grammar for
      // each beam at each step. The prompt (the commands themselves) makes Whisper start the
      // command it hears rather than the one its first word favours (measured on espeak-ng voices:
      // without it, en+f2 at 180 words a minute had three of seven commands heard as "I am sea").
      // The temperature fallback stays on: it is what stops a decode that starts repeating.
      options.singleSegment = true
      options.beamSize = 1
      options.bestOf = nil
      options.initialPrompt = restrictPrompt
    }
  }

  /// Rewrites decoded words (tokens grouped into words, each starting with its space): sound-alikes
  /// of the custom pronunciations become their graphemes, and words that say one of the model's
  /// commands take the model's spelling. Times are kept; a rewritten run spans the words it replaced.
  ///
  /// - Returns: the words and the command they say, if they say exactly one.
  func process(_ words: [WhisperSegment.Token]) async throws -> (words: [WhisperSegment.Token], phrase: String?) {
    var words = words
    if let matcher, !words.isEmpty { words = try await respell(words, with: matcher) }
    let text = String(decoding: words.flatMap(\.bytes), as: UTF8.self)
    guard let commands = model.grammar.commands(matching: text) else { return (words, nil) }
    if let spelled = Self.spelled(words, as: commands.joined(separator: " ")) { words = spelled }
    return (words, commands.count == 1 ? commands[0] : nil)
  }

  /// Runs the pronunciation matcher over `words`, keeping each word's times and confidence.
  private func respell(_ words: [WhisperSegment.Token], with matcher: PronunciationMatcher) async throws
    -> [WhisperSegment.Token]
  {
    let input = words.map { word in
      PronunciationMatcher.Word(
        String(decoding: word.bytes, as: UTF8.self).trimmingCharacters(in: .whitespaces), startTime: word.start,
        endTime: word.end)
    }
    let result = try await matcher.apply(to: input)
    guard !result.replacements.isEmpty else { return words }
    var output: [WhisperSegment.Token] = []
    var next = 0
    for replacement in result.replacements {
      output += words[next..<replacement.inputRange.lowerBound]
      let run = words[replacement.inputRange]
      let first = run.first!
      let leading = first.bytes.first == UInt8(ascii: " ") ? " " : ""
      output.append(
        WhisperSegment.Token(
          bytes: Array((leading + result.words[replacement.outputIndex].text).utf8), start: first.start,
          end: run.map(\.end).max() ?? first.end, probability: run.map(\.probability).min() ?? first.probability))
      next = replacement.inputRange.upperBound
    }
    output += words[next...]
    return output
  }

  /// `words` with the letters, digits and apostrophes of `command` in place of theirs, when they
  /// are the same ones ignoring case; nil when they are not.
  static func spelled(_ words: [WhisperSegment.Token], as command: String) -> [WhisperSegment.Token]? {
    let isWordCharacter: (Character) -> Bool = { $0.isLetter || $0.isNumber || $0 == "'" || $0 == "’" }
    var canonical = command.filter(isWordCharacter)[...]
    var output: [WhisperSegment.Token] = []
    for word in words {
      var text = ""
      for character in String(decoding: word.bytes, as: UTF8.self) {
        guard isWordCharacter(character) else {
          text.append(character)
          continue
        }
        guard let replacement = canonical.popFirst(), replacement.lowercased() == character.lowercased() else {
          return nil
        }
        text.append(replacement)
      }
      var respelled = word
      respelled.bytes = Array(text.utf8)
      output.append(respelled)
    }
    return canonical.isEmpty ? output : nil
  }
}
