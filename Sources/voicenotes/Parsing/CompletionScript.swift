import CommandLineParsing

/// Shell completion scripts for bash, zsh and fish, generated from the commands' declarations so
/// they always offer exactly the subcommands, options and option values the parser accepts.
struct CompletionScript {
  /// A shell the program writes completion for.
  enum Shell: String, CaseIterable, Sendable {
    case bash, zsh, fish
  }

  /// A command and the words that reach it (`voicenotes models install`).
  private struct Node {
    var path: String
    var configuration: CommandConfiguration
  }

  private let program: String
  private let nodes: [Node]

  /// The script for the tree of commands under `root`.
  init(root: any ParsableCommand.Type) {
    program = root.configuration.name
    var nodes: [Node] = []
    func walk(_ command: any ParsableCommand.Type, path: String) {
      nodes.append(Node(path: path, configuration: command.configuration))
      for subcommand in command.configuration.subcommands {
        walk(subcommand, path: path + " " + subcommand.configuration.name)
      }
    }
    walk(root, path: root.configuration.name)
    self.nodes = nodes
  }

  /// The script for `shell`.
  func script(for shell: Shell) -> String {
    switch shell {
    case .bash: bash()
    case .zsh: zsh()
    case .fish: fish()
    }
  }

  // MARK: - bash

  private func bash() -> String {
    var lines = [
      "# bash completion for \(program); load with: source <(\(program) completion bash)",
      "_\(function)() {",
      "  local cur=\"${COMP_WORDS[COMP_CWORD]}\" prev=\"${COMP_WORDS[COMP_CWORD-1]}\" path=\"\(program)\" i",
      "  for ((i = 1; i < COMP_CWORD; i++)); do",
      "    case \"$path ${COMP_WORDS[i]}\" in",
      "      \(nodes.dropFirst().map { quoted($0.path) }.joined(separator: "|"))) path=\"$path ${COMP_WORDS[i]}\" ;;",
      "    esac",
      "  done",
      "  case \"$path:$prev\" in",
    ]
    lines += valueCases { "    \($0)) \(bashValues($1)); return ;;" }
    lines += ["  esac", "  case \"$path\" in"]
    for node in nodes {
      let words = node.configuration.subcommands.map { $0.configuration.name } + optionWords(node.configuration)
      lines.append(
        "    \(quoted(node.path))) COMPREPLY=($(compgen -W \(quoted(words.joined(separator: " "))) -- \"$cur\"))")
      if takesFiles(node.configuration) {
        lines.append("      [[ $cur != -* ]] && COMPREPLY+=($(compgen -f -- \"$cur\"))")
      }
      lines.append("      ;;")
    }
    lines += ["  esac", "}", "complete -o filenames -F _\(function) \(program)", ""]
    return lines.joined(separator: "\n")
  }

  private func bashValues(_ option: OptionSpec) -> String {
    if let allowed = option.allowedValues {
      return "COMPREPLY=($(compgen -W \(quoted(allowed.joined(separator: " "))) -- \"$cur\"))"
    }
    switch option.valueName {
    case "folder": return "COMPREPLY=($(compgen -d -- \"$cur\"))"
    case "file", "path": return "COMPREPLY=($(compgen -f -- \"$cur\"))"
    default: return "COMPREPLY=()"
    }
  }

  // MARK: - zsh

  private func zsh() -> String {
    var lines = [
      "#compdef \(program)",
      "# zsh completion for \(program); load with: source <(\(program) completion zsh)",
      "_\(function)() {",
      "  local path_=\"\(program)\" prev=\"${words[CURRENT-1]}\" i",
      "  local -a items",
      "  for ((i = 2; i < CURRENT; i++)); do",
      "    case \"$path_ ${words[i]}\" in",
      "      (\(nodes.dropFirst().map { quoted($0.path) }.joined(separator: "|"))) path_=\"$path_ ${words[i]}\" ;;",
      "    esac",
      "  done",
      "  case \"$path_:$prev\" in",
    ]
    lines += valueCases { "    (\($0)) \(zshValues($1)); return ;;" }
    lines += ["  esac", "  case \"$path_\" in"]
    for node in nodes {
      var items = node.configuration.subcommands.map {
        zshItem($0.configuration.name, $0.configuration.abstract)
      }
      items += node.configuration.options.flatMap { option in names(of: option).map { zshItem($0, option.help) } }
      items += [zshItem("--no-color", "Print no colour."), zshItem("--help", "Show help information.")]
      lines.append("    (\(quoted(node.path))) items=(\(items.joined(separator: " ")))")
      if takesFiles(node.configuration) { lines.append("      [[ $PREFIX != -* ]] && _files") }
      lines.append("      ;;")
    }
    lines += [
      "  esac",
      "  _describe -t commands '\(program)' items",
      "}",
      "if [[ ${funcstack[1]} == _\(function) ]]; then _\(function) \"$@\"; else compdef _\(function) \(program); fi",
      "",
    ]
    return lines.joined(separator: "\n")
  }

  private func zshValues(_ option: OptionSpec) -> String {
    if let allowed = option.allowedValues { return "compadd -- \(allowed.map(quoted).joined(separator: " "))" }
    switch option.valueName {
    case "folder": return "_files -/"
    case "file", "path": return "_files"
    default: return "_message \(quoted(option.valueName ?? "value"))"
    }
  }

  private func zshItem(_ name: String, _ help: String) -> String {
    quoted(name.replacingOccurrences(of: ":", with: "\\:") + ":" + help)
  }

  // MARK: - fish

  private func fish() -> String {
    var lines = [
      "# fish completion for \(program); load with: \(program) completion fish | source",
      "function __\(function)_path",
      "    set -l path \(program)",
      "    for word in (commandline -opc)[2..-1]",
      "        switch \"$path $word\"",
      "            case \(nodes.dropFirst().map { quoted($0.path) }.joined(separator: " "))",
      "                set path \"$path $word\"",
      "        end",
      "    end",
      "    echo $path",
      "end",
      "function __\(function)_at",
      "    test (__\(function)_path) = \"$argv[1]\"",
      "end",
      "complete -c \(program) -f",
    ]
    for node in nodes {
      let condition = "-n \(quoted("__\(function)_at \(fishQuoted(node.path))"))"
      for subcommand in node.configuration.subcommands {
        lines.append(
          "complete -c \(program) \(condition) -a \(subcommand.configuration.name) -d \(quoted(subcommand.configuration.abstract))"
        )
      }
      for option in node.configuration.options {
        var line = "complete -c \(program) \(condition) -l \(option.name)"
        if let short = option.short { line += " -s \(short)" }
        if let allowed = option.allowedValues {
          line += " -x -a \(quoted(allowed.joined(separator: " ")))"
        } else if option.valueName == "folder" {
          line += " -x -a '(__fish_complete_directories)'"
        } else if option.valueName == "file" || option.valueName == "path" {
          line += " -r -F"
        } else if option.valueName != nil {
          line += " -x"
        }
        lines.append(line + " -d \(quoted(option.help))")
      }
      lines.append("complete -c \(program) \(condition) -l no-color -d 'Print no colour.'")
      lines.append("complete -c \(program) \(condition) -s h -l help -d 'Show help information.'")
      if takesFiles(node.configuration) { lines.append("complete -c \(program) \(condition) -F") }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  private func fishQuoted(_ text: String) -> String { "\"\(text)\"" }

  // MARK: - Shared

  /// One `case` branch per option that takes a value, matching "command path:option" (both
  /// spellings of the option), made by `branch` from the pattern and the option.
  private func valueCases(_ branch: (String, OptionSpec) -> String) -> [String] {
    nodes.flatMap { node in
      node.configuration.options.filter { $0.valueName != nil }.map { option in
        branch(names(of: option).map { quoted("\(node.path):\($0)") }.joined(separator: "|"), option)
      }
    }
  }

  private var function: String { program.replacingOccurrences(of: "-", with: "_") }

  /// `--name` and `-s` for an option.
  private func names(of option: OptionSpec) -> [String] {
    ["--\(option.name)"] + (option.short.map { ["-\($0)"] } ?? [])
  }

  private func optionWords(_ configuration: CommandConfiguration) -> [String] {
    configuration.options.map { "--\($0.name)" } + ["--no-color", "--help"]
  }

  /// Whether the command's positional arguments are files.
  private func takesFiles(_ configuration: CommandConfiguration) -> Bool {
    configuration.arguments.contains { $0.name == "file" }
  }

  /// `text` in single quotes for any of the three shells (help text holds no single quote of its
  /// own that is not escaped here).
  private func quoted(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
  }
}
