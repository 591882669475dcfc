import CLlama
import Foundation
import ModelSupport

/// A loaded GGUF model with one llama.cpp context: the only code that calls llama.cpp.
///
/// An actor on its own thread (llama contexts are not thread-safe, and decoding blocks). It keeps
/// the tokens whose keys and values sit in the KV cache, so a prompt that extends the previous
/// one (the next turn of a conversation, a prewarmed prefix) only evaluates what is new.
///
/// In embedding mode (``init(embeddingModelAt:threads:)``) the context pools each sequence's
/// outputs into one vector instead of keeping a KV cache; ``embed(_:)`` runs many sequences per
/// forward pass.
actor LlamaEngine {
  private let model: OpaquePointer
  private let context: OpaquePointer
  private let vocab: OpaquePointer
  private let executor: EngineThread
  private var cachedTokens: [Int32] = []
  private let batchSize = Int32(LlamaEngine.tokensPerPass)

  /// Tokens evaluated in one `llama_decode`; in embedding mode, also the most one sequence may have.
  static let tokensPerPass = 512

  /// The model file this engine runs.
  let path: String
  /// Tokens the context holds, prompt and response together.
  let contextSize: Int
  /// The chat template stored in the GGUF file, if any.
  let chatTemplate: String?
  /// Length of the model's hidden state: of the vectors ``embed(_:)`` returns.
  let embeddingLength: Int
  /// At most this many sequences go into one forward pass in embedding mode.
  let sequencesPerBatch: Int

  nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

  init(path: String, contextSize: Int, threads: Int) throws(LlamaError) {
    try self.init(path: path, contextSize: contextSize, threads: threads, embeddings: false)
  }

  /// Loads an embedding model (a BERT-like encoder whose GGUF file names its pooling) for
  /// ``embed(_:)``: non-causal, no KV cache, each sequence's token outputs mean-pooled.
  /// ``batchSize`` tokens, in at most ``sequencesPerBatch`` sequences, go into one forward pass.
  init(embeddingModelAt path: String, threads: Int) throws(LlamaError) {
    try self.init(path: path, contextSize: Self.tokensPerPass, threads: threads, embeddings: true)
  }

  private init(path: String, contextSize: Int, threads: Int, embeddings: Bool) throws(LlamaError) {
    do { try ComputeBackend.load() } catch { throw .backendUnavailable(detail: error.localizedDescription) }
    Self.initializeBackend
    var modelParameters = llama_model_default_params()
    modelParameters.n_gpu_layers = 0
    guard let model = llama_model_load_from_file(path, modelParameters) else {
      throw .loadFailed(path: path)
    }
    var contextParameters = llama_context_default_params()
    contextParameters.n_ctx = UInt32(contextSize)
    contextParameters.n_batch = UInt32(batchSize)
    contextParameters.n_ubatch = UInt32(batchSize)
    contextParameters.n_threads = Int32(threads)
    contextParameters.n_threads_batch = Int32(threads)
    contextParameters.no_perf = true
    let sequences = embeddings ? 64 : 1
    if embeddings {
      // An encoder evaluates a whole batch in one micro-batch, its sequences masked from each
      // other; mean pooling gives one vector per sequence.
      contextParameters.embeddings = true
      contextParameters.pooling_type = LLAMA_POOLING_TYPE_MEAN
      contextParameters.n_seq_max = UInt32(sequences)
      contextParameters.kv_unified = true
    } else {
      // ggml's CPU flash attention reads the whole KV cache once for each token of a pass, where
      // the plain attention multiplies it with all of them at once: with 1,500 tokens cached
      // (qwen-1.5b, two threads), a pass of 5 tokens took 287 ms with it and 195 without, and a
      // pass of 1 token 75 and 69. Embedding passes keep the default.
      contextParameters.flash_attn_type = LLAMA_FLASH_ATTN_TYPE_DISABLED
    }
    guard let context = llama_init_from_model(model, contextParameters) else {
      llama_model_free(model)
      throw .contextFailed(path: path)
    }
    self.model = model
    self.context = context
    vocab = llama_model_get_vocab(model)
    self.path = path
    self.contextSize = Int(llama_n_ctx(context))
    chatTemplate = llama_model_chat_template(model, nil).map { String(cString: $0) }
    embeddingLength = Int(llama_model_n_embd(model))
    sequencesPerBatch = sequences
    executor = EngineThread(name: "llama")
  }

  isolated deinit {
    llama_free(context)
    llama_model_free(model)
  }

  // MARK: - Text and tokens

  /// The tokens of `text`; `special` parses control tokens such as `<|im_start|>`.
  func tokenize(_ text: String, special: Bool = true) -> [Int32] {
    Self.tokenize(text, vocab: vocab, special: special)
  }

  /// The tokens of `text` with the model's own markers around them (a BERT's `[CLS]` and
  /// `[SEP]`), control tokens in the text read as plain text.
  func tokenizeForEmbedding(_ text: String) -> [Int32] {
    Self.tokenize(text, vocab: vocab, special: false, addingMarkers: true)
  }

  /// The text of `tokens`, as the model would write it.
  func detokenize(_ tokens: [Int32]) -> String {
    String(decoding: tokens.flatMap(piece), as: UTF8.self)
  }

  /// Formats a conversation with the model's chat template, ready for the assistant's reply
  /// (or, with `addAssistant` false, without the cue that starts it).
  func format(_ messages: [LlamaMessage], addAssistant: Bool = true) throws(LlamaError) -> String {
    let roles = messages.map { strdup($0.role) }
    let contents = messages.map { strdup($0.content) }
    defer {
      for pointer in roles + contents { free(pointer) }
    }
    var chat = zip(roles, contents).map { llama_chat_message(role: $0, content: $1) }
    var buffer = [CChar](repeating: 0, count: max(4096, messages.reduce(0) { $0 + $1.content.utf8.count } * 2 + 512))
    let template = chatTemplate
    func apply(_ buffer: inout [CChar]) -> Int32 {
      let capacity = Int32(buffer.count)
      return buffer.withUnsafeMutableBufferPointer { output in
        llama_chat_apply_template(template, &chat, chat.count, addAssistant, output.baseAddress, capacity)
      }
    }
    var length = apply(&buffer)
    if length > buffer.count {
      buffer = [CChar](repeating: 0, count: Int(length) + 1)
      length = apply(&buffer)
    }
    guard length >= 0 else { throw .templateUnsupported }
    return String(decoding: buffer.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  // MARK: - Generation

  /// Evaluates `prompt` into the KV cache without generating, so a later request that starts
  /// with it is answered sooner.
  func prewarm(_ prompt: String) throws(LlamaError) {
    let tokens = tokenize(prompt)
    if cachedTokens.starts(with: tokens) { return }
    guard tokens.count < contextSize else { throw .contextExceeded(tokens: tokens.count, limit: contextSize) }
    try evaluate(tokens)
  }

  /// Generates a continuation of `prompt`.
  ///
  /// - Parameters:
  ///   - grammar: a GBNF grammar (root rule `root`) the output must follow, enforced while sampling.
  ///   - prefix: the part of `prompt` that many requests share, whose KV state is restored from
  ///     its state file (or evaluated and saved there) when the cache does not hold it.
  ///   - decodesAhead: evaluate the text the grammar allows no alternative to without sampling
  ///     it, in the forward pass of the token sampled before it.
  ///   - onText: called with each new piece of text; return false to stop.
  func generate(
    prompt: String, grammar: String?, sampling: LlamaSampling, maximumTokens: Int?, prefix: LlamaPrefix? = nil,
    decodesAhead: Bool = true, shouldStop: @Sendable () -> Bool = { false }, onText: (String) -> Bool = { _ in true }
  ) throws(LlamaError) -> LlamaGeneration {
    let tokens = tokenize(prompt)
    let budget = maximumTokens ?? contextSize
    guard tokens.count + 1 < contextSize else {
      throw .contextExceeded(tokens: tokens.count, limit: contextSize)
    }
    var timing = LlamaTiming()
    let promptStart = ContinuousClock.now
    if let prefix {
      let prefixLength = zip(tokenize(prefix.text), tokens).prefix { $0 == $1 }.count
      timing.prefixState = try restore(
        prefix, firstTokens: Array(tokens.prefix(prefixLength)), of: tokens, grammar: grammar, timing: &timing)
      forgetChanceMatch(of: tokens, afterPrefixOf: prefixLength)
    }
    timing.promptTokensEvaluated += try evaluate(tokens)
    timing.promptSeconds = Self.seconds(since: promptStart)
    let sampler = try makeSampler(sampling: sampling)
    defer { llama_sampler_free(sampler) }
    let constraint = try makeGrammar(grammar)
    defer { if let constraint { llama_sampler_free(constraint) } }

    var text = ""
    var pending: [UInt8] = []
    var generated = 0
    var reason = LlamaGeneration.StopReason.endOfText
    /// Counts and shows tokens just accepted, a token's text at a time (a stream's reader sees
    /// each step, batched or not); false when the caller wants no more.
    func accept(_ accepted: [Int32]) -> Bool {
      generated += accepted.count
      for token in accepted {
        pending += piece(token)
        let (complete, rest) = Self.splitValidUTF8(pending)
        pending = rest
        guard !complete.isEmpty else { continue }
        text += complete
        if !onText(complete) { return false }
      }
      return true
    }
    while true {
      if generated >= budget {
        reason = .tokenLimit
        break
      }
      if shouldStop() {
        reason = .cancelled
        break
      }
      if cachedTokens.count >= contextSize {
        reason = .contextFull
        break
      }
      let room = min(budget - generated, contextSize - cachedTokens.count)
      if decodesAhead, let constraint {
        let forced = Array(forcedTokens(by: constraint, sampler: sampler, timing: &timing).prefix(room))
        if !forced.isEmpty {
          let decodeStart = ContinuousClock.now
          try evaluate(cachedTokens + forced)
          timing.decodeSeconds += Self.seconds(since: decodeStart)
          if !accept(forced) {
            reason = .stoppedByCaller
            break
          }
          continue
        }
      }
      let token = nextToken(sampler, constrainedBy: constraint, timing: &timing)
      if llama_vocab_is_eog(vocab, token) { break }
      // The text the grammar forces after the token goes into the same forward pass: on two
      // cores a pass of one token takes about 25 ms and each token more about 10, and in JSON
      // nearly every value is followed by forced punctuation and the next property's name.
      var step = [token]
      if decodesAhead, let constraint, room > 1 {
        step += forcedTokens(by: constraint, sampler: sampler, timing: &timing).prefix(room - 1)
      }
      let decodeStart = ContinuousClock.now
      try evaluate(cachedTokens + step)
      timing.decodeSeconds += Self.seconds(since: decodeStart)
      if !accept(step) {
        reason = .stoppedByCaller
        break
      }
    }
    if !pending.isEmpty { text += String(decoding: pending, as: UTF8.self) }
    return LlamaGeneration(
      text: text, promptTokens: tokens.count, generatedTokens: generated, stopReason: reason, timing: timing)
  }

  /// The smallest prefix worth a state file, in tokens: below it, evaluating is as quick as reading.
  static let minimumSavedPrefix = 32

  /// Makes the KV cache hold `shared`, the tokens `prompt` shares with `prefix.text`: already
  /// there, restored from the prefix's state file, or evaluated and then saved to it.
  private func restore(
    _ prefix: LlamaPrefix, firstTokens shared: [Int32], of prompt: [Int32], grammar: String?,
    timing: inout LlamaTiming
  ) throws(LlamaError) -> LlamaTiming.PrefixState {
    guard shared.count >= Self.minimumSavedPrefix, shared.count < prompt.count else { return .none }
    if cachedTokens.starts(with: shared) { return .inMemory }
    let file = LlamaStateFile(
      folder: prefix.folder, modelPath: path, contextSize: contextSize, tokens: shared, grammar: grammar)
    if let state = file.read(), load(state, holding: shared) { return .loaded }
    timing.promptTokensEvaluated += try evaluate(shared)
    guard let state = sequenceState() else { return .unsaved("llama.cpp returned no state for the prefix") }
    do {
      try file.write(state)
      return .saved
    } catch {
      return .unsaved("\(error)")
    }
  }

  /// Cached tokens that `prompt` shares beyond the prefix only by chance ("Analyse this
  /// transcript: Okay," of the note before) are evaluated again: a forward pass gives a token
  /// logits that differ in their last bits with the batch it is in, so where the shared part ends
  /// would otherwise change what greedy decoding writes for the same request. A longer shared
  /// part (the earlier turns of a conversation) is kept.
  private func forgetChanceMatch(of prompt: [Int32], afterPrefixOf prefixLength: Int) {
    let shared = zip(cachedTokens, prompt).prefix { $0 == $1 }.count
    guard prefixLength >= Self.minimumSavedPrefix, shared > prefixLength,
      shared < prefixLength + Self.shortestKeptTurn, shared < prompt.count
    else { return }
    if llama_memory_seq_rm(llama_get_memory(context), 0, Int32(prefixLength), -1) {
      cachedTokens = Array(cachedTokens.prefix(prefixLength))
    }
  }

  /// The fewest tokens past the prefix that a prompt must share with the cache for them to be
  /// reused: a shorter match is a chance one.
  static let shortestKeptTurn = 32

  /// The KV state of sequence 0, as llama.cpp serialises it.
  private func sequenceState() -> [UInt8]? {
    let size = llama_state_seq_get_size(context, 0)
    guard size > 0 else { return nil }
    var state = [UInt8](repeating: 0, count: size)
    let written = state.withUnsafeMutableBufferPointer { llama_state_seq_get_data(context, $0.baseAddress, size, 0) }
    return written > 0 ? Array(state.prefix(written)) : nil
  }

  /// Replaces the KV cache with `state`, which must hold exactly `tokens`; false (and an empty
  /// cache) when llama.cpp refuses it.
  private func load(_ state: [UInt8], holding tokens: [Int32]) -> Bool {
    let memory = llama_get_memory(context)
    llama_memory_clear(memory, true)
    cachedTokens = []
    let read = state.withUnsafeBufferPointer { llama_state_seq_set_data(context, $0.baseAddress, $0.count, 0) }
    guard read > 0, llama_memory_seq_pos_max(memory, 0) == Int32(tokens.count - 1) else {
      llama_memory_clear(memory, true)
      return false
    }
    cachedTokens = tokens
    return true
  }

  private static func seconds(since start: ContinuousClock.Instant) -> Double {
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
  }

  /// Makes the KV cache hold exactly `tokens`, reusing the longest prefix already there, with
  /// logits ready for the last token. Returns how many tokens were evaluated.
  @discardableResult
  private func evaluate(_ tokens: [Int32]) throws(LlamaError) -> Int {
    var shared = zip(cachedTokens, tokens).prefix { $0 == $1 }.count
    if shared == tokens.count { shared -= 1 }  // the last token must be decoded again for its logits
    let memory = llama_get_memory(context)
    if shared <= 0 {
      llama_memory_clear(memory, true)
      shared = 0
    } else if !llama_memory_seq_rm(memory, 0, Int32(shared), -1) {
      llama_memory_clear(memory, true)
      shared = 0
    }
    cachedTokens = Array(tokens[..<shared])
    var start = shared
    while start < tokens.count {
      let end = min(start + Int(batchSize), tokens.count)
      var chunk = Array(tokens[start..<end])
      let status = chunk.withUnsafeMutableBufferPointer { buffer in
        llama_decode(context, llama_batch_get_one(buffer.baseAddress, Int32(buffer.count)))
      }
      guard status == 0 else {
        cachedTokens = []
        llama_memory_clear(memory, true)
        throw status == 1 ? .contextExceeded(tokens: tokens.count, limit: contextSize) : .decodeFailed(status: status)
      }
      cachedTokens += chunk
      start = end
    }
    return tokens.count - shared
  }

  // MARK: - Embeddings

  /// The pooled output of each token sequence (not normalised), in order.
  ///
  /// Consecutive sequences are packed into forward passes of at most ``batchSize`` tokens and
  /// ``sequencesPerBatch`` sequences; each sequence must have between 1 and ``tokensPerPass``
  /// tokens. Only for an engine made with ``init(embeddingModelAt:threads:)``.
  func embed(_ sequences: [[Int32]]) throws(LlamaError) -> [[Float]] {
    guard let longest = sequences.map(\.count).max() else { return [] }
    guard sequences.allSatisfy({ !$0.isEmpty }), longest <= Int(batchSize) else {
      throw .contextExceeded(tokens: longest, limit: Int(batchSize))
    }
    var batch = llama_batch_init(batchSize, 0, 1)
    defer { llama_batch_free(batch) }
    var vectors: [[Float]] = []
    vectors.reserveCapacity(sequences.count)
    var first = 0
    while first < sequences.count {
      var end = first
      var tokens = 0
      while end < sequences.count, end - first < sequencesPerBatch, tokens + sequences[end].count <= Int(batchSize) {
        tokens += sequences[end].count
        end += 1
      }
      batch.n_tokens = 0
      for (sequence, ids) in sequences[first..<end].enumerated() {
        for (position, token) in ids.enumerated() {
          let index = Int(batch.n_tokens)
          batch.token[index] = token
          batch.pos[index] = Int32(position)
          batch.n_seq_id[index] = 1
          batch.seq_id[index]![0] = Int32(sequence)
          batch.logits[index] = 1
          batch.n_tokens += 1
        }
      }
      let status = llama_decode(context, batch)
      guard status == 0 else { throw .decodeFailed(status: status) }
      for sequence in 0..<(end - first) {
        guard let pooled = llama_get_embeddings_seq(context, Int32(sequence)) else {
          throw .decodeFailed(status: -1)
        }
        vectors.append(Array(UnsafeBufferPointer(start: pooled, count: embeddingLength)))
      }
      first = end
    }
    return vectors
  }

  private func makeSampler(sampling: LlamaSampling) throws(LlamaError) -> UnsafeMutablePointer<llama_sampler> {
    guard let chain = llama_sampler_chain_init(llama_sampler_chain_default_params()) else {
      throw .decodeFailed(status: -1)
    }
    switch sampling {
    case .greedy:
      llama_sampler_chain_add(chain, llama_sampler_init_greedy())
    case .random(let topK, let topP, let temperature, let seed):
      if let topK { llama_sampler_chain_add(chain, llama_sampler_init_top_k(Int32(topK))) }
      if let topP { llama_sampler_chain_add(chain, llama_sampler_init_top_p(Float(topP), 1)) }
      llama_sampler_chain_add(chain, llama_sampler_init_temp(Float(temperature)))
      llama_sampler_chain_add(chain, llama_sampler_init_dist(seed))
    }
    return chain
  }

  private func makeGrammar(_ grammar: String?) throws(LlamaError) -> UnsafeMutablePointer<llama_sampler>? {
    guard let grammar else { return nil }
    guard let constraint = llama_sampler_init_grammar(vocab, grammar, "root") else {
      throw .grammarRejected(grammar: grammar)
    }
    return constraint
  }

  /// The next token after the last one evaluated: the sampler's choice, under the grammar when
  /// there is one.
  ///
  /// Checking the whole vocabulary against a grammar costs as much as a forward pass, so the
  /// sampler's choice is checked alone first; only when the grammar rejects it is the whole
  /// vocabulary masked and the choice made again among the tokens the grammar allows.
  private func nextToken(
    _ sampler: UnsafeMutablePointer<llama_sampler>, constrainedBy grammar: UnsafeMutablePointer<llama_sampler>?,
    timing: inout LlamaTiming
  ) -> Int32 {
    let sampleStart = ContinuousClock.now
    let candidate = llama_sampler_sample(sampler, context, -1)
    timing.samplingSeconds += Self.seconds(since: sampleStart)
    guard let grammar else { return candidate }
    let grammarStart = ContinuousClock.now
    defer { timing.grammarSeconds += Self.seconds(since: grammarStart) }
    var single = llama_token_data(id: candidate, logit: 1, p: 0)
    let allowed = withUnsafeMutablePointer(to: &single) { pointer -> Bool in
      var array = llama_token_data_array(data: pointer, size: 1, selected: -1, sorted: false)
      llama_sampler_apply(grammar, &array)
      return array.data[0].logit.isFinite
    }
    if allowed {
      llama_sampler_accept(grammar, candidate)
      return candidate
    }
    timing.grammarRejections += 1
    guard let logits = llama_get_logits_ith(context, -1) else { return candidate }
    let count = Int(llama_vocab_n_tokens(vocab))
    var data = (0..<count).map { llama_token_data(id: Int32($0), logit: logits[$0], p: 0) }
    let token = data.withUnsafeMutableBufferPointer { buffer -> Int32 in
      var array = llama_token_data_array(data: buffer.baseAddress, size: count, selected: -1, sorted: false)
      llama_sampler_apply(grammar, &array)
      llama_sampler_apply(sampler, &array)
      guard array.selected >= 0, array.selected < array.size else { return candidate }
      return array.data[Int(array.selected)].id
    }
    llama_sampler_accept(grammar, token)
    return token
  }

  // MARK: - Text the grammar forces

  /// Tokens of text the grammar allows no alternative to (a property name and the punctuation
  /// around it), accepted by the grammar and the sampler: the caller evaluates them in one forward
  /// pass instead of sampling them one by one.
  ///
  /// The forced text is found a character at a time, by asking the grammar which single-character
  /// tokens (and end of text) it allows next. Its last tokens are left for sampling when a
  /// character the grammar allows after it would join them into another token.
  private func forcedTokens(
    by grammar: UnsafeMutablePointer<llama_sampler>, sampler: UnsafeMutablePointer<llama_sampler>,
    timing: inout LlamaTiming
  ) -> [Int32] {
    let start = ContinuousClock.now
    defer { timing.grammarSeconds += Self.seconds(since: start) }
    // The grammar is cloned only when it forces something: this runs after every sampled token.
    var next = charactersAllowed(by: grammar)
    guard next.only != nil, let probe = llama_sampler_clone(grammar) else { return [] }
    defer { llama_sampler_free(probe) }
    var forced: [UInt8] = []
    while forced.count < Self.longestForcedText, let character = next.only {
      forced.append(character)
      llama_sampler_accept(probe, characterTokens.token[Int(character)])
      next = charactersAllowed(by: probe)
    }
    let tokens = settledTokens(of: String(decoding: forced, as: UTF8.self), before: next.characters)
    for token in tokens {
      llama_sampler_accept(grammar, token)
      llama_sampler_accept(sampler, token)
    }
    timing.forcedTokens += tokens.count
    return tokens
  }

  /// The tokens that begin `text` whichever of `following` comes after it: the tokens `text`
  /// and `text` followed by each of those characters have in common. The tokenizer joins a last
  /// mark to what follows (`}` and `,` into `},`); committing the mark alone would leave the
  /// model to continue from a split it rarely saw, which changes what it writes next (it closed
  /// lists of action items early). Only the characters the grammar allows next are tried: the
  /// `":"` before an enumeration's value (`"person"`, `"to do"`) is settled, since only letters
  /// may follow it, where a `"` or a `:` after it would join it into another token and so had
  /// left it to a forward pass of its own.
  private func settledTokens(of text: String, before following: [UInt8]) -> [Int32] {
    var settled = Self.tokenize(text, vocab: vocab, special: false)[...]
    for byte in following where !settled.isEmpty {
      let tokens = Self.tokenize(text + String(UnicodeScalar(byte)), vocab: vocab, special: false)
      settled = settled.prefix(zip(settled, tokens).prefix { $0 == $1 }.count)
    }
    return Array(settled)
  }

  /// The most forced characters looked ahead at once.
  private static let longestForcedText = 512

  /// The ASCII characters (single-character tokens) `grammar` allows next, and whether it also
  /// allows the end of text; `only` is the character when it is the one text allowed.
  private struct AllowedCharacters {
    var characters: [UInt8] = []
    var allowsEnd = false
    var only: UInt8? { characters.count == 1 && !allowsEnd ? characters[0] : nil }
  }

  /// What `grammar` allows next, among the single-character tokens and the end of text.
  private func charactersAllowed(by grammar: UnsafeMutablePointer<llama_sampler>) -> AllowedCharacters {
    var candidates = characterTokens.probes.map { llama_token_data(id: $0, logit: 0, p: 0) }
    var allowed = AllowedCharacters()
    candidates.withUnsafeMutableBufferPointer { buffer in
      var array = llama_token_data_array(data: buffer.baseAddress, size: buffer.count, selected: -1, sorted: false)
      llama_sampler_apply(grammar, &array)
      for candidate in buffer where candidate.logit.isFinite {
        if let byte = characterTokens.byte[candidate.id] {
          allowed.characters.append(byte)
        } else {
          allowed.allowsEnd = true
        }
      }
    }
    return allowed
  }

  /// The tokens that are one printable ASCII character (or a line break), both ways, and the
  /// candidates that probe a grammar: those tokens and the end-of-text tokens.
  private struct CharacterTokens {
    var token = [Int32](repeating: -1, count: 128)
    var byte: [Int32: UInt8] = [:]
    var probes: [Int32] = []
  }

  private var characterTokenTable: CharacterTokens?

  private var characterTokens: CharacterTokens {
    if let table = characterTokenTable { return table }
    var table = CharacterTokens()
    for byte in [UInt8(ascii: "\n")] + Array(UInt8(0x20)...UInt8(0x7E)) {
      let tokens = Self.tokenize(String(UnicodeScalar(byte)), vocab: vocab, special: false)
      guard tokens.count == 1 else { continue }
      table.token[Int(byte)] = tokens[0]
      table.byte[tokens[0]] = byte
      table.probes.append(tokens[0])
    }
    table.probes += [llama_vocab_eos(vocab), llama_vocab_eot(vocab)].filter { $0 >= 0 }
    characterTokenTable = table
    return table
  }

  private func piece(_ token: Int32) -> [UInt8] {
    var buffer = [CChar](repeating: 0, count: 64)
    var length = llama_token_to_piece(vocab, token, &buffer, Int32(buffer.count), 0, false)
    if length < 0 {
      buffer = [CChar](repeating: 0, count: Int(-length))
      length = llama_token_to_piece(vocab, token, &buffer, Int32(buffer.count), 0, false)
    }
    return buffer.prefix(Int(max(length, 0))).map { UInt8(bitPattern: $0) }
  }

  // MARK: - Helpers that need no context

  static func tokenize(_ text: String, vocab: OpaquePointer, special: Bool, addingMarkers: Bool = false) -> [Int32] {
    let bytes = Array(text.utf8)
    var tokens = [Int32](repeating: 0, count: bytes.count + 8)
    var count = llama_tokenize(
      vocab, text, Int32(bytes.count), &tokens, Int32(tokens.count), addingMarkers, special)
    if count < 0 {
      tokens = [Int32](repeating: 0, count: Int(-count))
      count = llama_tokenize(
        vocab, text, Int32(bytes.count), &tokens, Int32(tokens.count), addingMarkers, special)
    }
    return Array(tokens.prefix(Int(max(count, 0))))
  }

  /// Splits bytes into the longest prefix that is complete UTF-8 and the rest (an unfinished
  /// character, which the next token completes).
  static func splitValidUTF8(_ bytes: [UInt8]) -> (String, [UInt8]) {
    var end = bytes.count
    var back = 0
    while end > 0 && back < 4 {
      let byte = bytes[end - 1]
      if byte & 0xC0 == 0x80 {
        end -= 1
        back += 1
        continue
      }
      let width = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
      if width > back + 1 { end -= 1 } else { end = bytes.count }
      break
    }
    return (String(decoding: bytes[..<end], as: UTF8.self), Array(bytes[end...]))
  }

  private static let initializeBackend: Void = {
    if !EngineConfiguration.current.showsEngineLogs {
      llama_log_set(llamaDiscardLog, nil)
    }
    llama_backend_init()
  }()
}

private func llamaDiscardLog(
  _ level: ggml_log_level, _ text: UnsafePointer<CChar>?, _ userData: UnsafeMutableRawPointer?
) {}
