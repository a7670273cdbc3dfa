package heimdall.lab.vm;

import heimdall.lab.Io;
import heimdall.lab.Refusal;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Where Debian's archive is, as this machine's own apt configuration says ({@code /etc/apt/sources.list.d/*.sources}
 * in deb822 form, and {@code /etc/apt/sources.list} one-line entries): the main archive's URI and the security
 * archive's. Read at run time and never written down by us, so the toolkit names no host of its own and uses
 * whatever mirror or proxy the machine is set up for. Only read; the machine's apt configuration is never changed.
 *
 * @param archive the URI of the entry whose suites include a release without suffix ({@code bookworm})
 * @param security the URI of the entry whose suites include {@code <release>-security}, if any
 */
public record DebianArchive(String archive, Optional<String> security) {
    static final Path SOURCES_LIST = Path.of("/etc/apt/sources.list");
    static final Path SOURCES_PARTS = Path.of("/etc/apt/sources.list.d");

    /** An entry of a sources file: its URIs and suites (types {@code deb} only). */
    record Entry(List<String> uris, List<String> suites) {}

    /** The archive as the machine's apt configuration gives it; a refusal naming the files when it has none. */
    public static DebianArchive ofMachine() {
        return of(SOURCES_LIST, SOURCES_PARTS);
    }

    static DebianArchive of(Path sourcesList, Path sourcesParts) {
        List<Entry> entries = new ArrayList<>();
        if (Files.isRegularFile(sourcesList)) {
            entries.addAll(oneLine(Io.readString(sourcesList, 1 << 20)));
        }
        if (Files.isDirectory(sourcesParts)) {
            try (DirectoryStream<Path> files = Files.newDirectoryStream(sourcesParts)) {
                List<Path> sorted = new ArrayList<>();
                files.forEach(sorted::add);
                sorted.sort(null);
                for (Path f : sorted) {
                    String name = f.getFileName().toString();
                    if (name.endsWith(".sources") && Files.isRegularFile(f)) {
                        entries.addAll(deb822(Io.readString(f, 1 << 20)));
                    } else if (name.endsWith(".list") && Files.isRegularFile(f)) {
                        entries.addAll(oneLine(Io.readString(f, 1 << 20)));
                    }
                }
            } catch (IOException e) {
                throw new Refusal("reading the machine's apt configuration: " + sourcesParts + ": " + Io.reason(e));
            }
        }
        Optional<String> archive = first(entries, false);
        if (archive.isEmpty()) {
            throw new Refusal("finding Debian's archive: no deb entry for a Debian release in " + sourcesList + " or "
                    + sourcesParts + "/*.sources; the kernels are fetched from the archive this machine's apt uses");
        }
        return new DebianArchive(archive.get(), first(entries, true));
    }

    /** The first usable URI of an entry with a plain release suite, or with a {@code -security} one. */
    private static Optional<String> first(List<Entry> entries, boolean security) {
        for (Entry e : entries) {
            boolean match = e.suites().stream()
                    .anyMatch(s -> security
                            ? s.endsWith("-security")
                            : s.matches("[a-z]+") && !s.equals("sid") && !s.equals("experimental"));
            if (match) {
                Optional<String> uri =
                        e.uris().stream().filter(DebianArchive::usableUri).findFirst();
                if (uri.isPresent()) {
                    return uri;
                }
            }
        }
        return Optional.empty();
    }

    /**
     * A URI we put into our own sources list: http, https or file, with none of the characters that would let it
     * carry options or a second entry (blanks, brackets, quotes).
     */
    static boolean usableUri(String uri) {
        return uri.matches("(https?|file):/[A-Za-z0-9._~:/?#@!$&*+,;=%-]*");
    }

    /** Stanzas of deb822 sources ({@code Types:}, {@code URIs:}, {@code Suites:}), blank-line separated. */
    static List<Entry> deb822(String text) {
        List<Entry> entries = new ArrayList<>();
        for (String stanza : text.split("\\n\\s*\\n")) {
            List<String> types = List.of();
            List<String> uris = List.of();
            List<String> suites = List.of();
            boolean enabled = true;
            for (String line : stanza.lines().toList()) {
                if (line.startsWith("#") || !line.contains(":") || Character.isWhitespace(line.charAt(0))) {
                    continue;
                }
                String key = line.substring(0, line.indexOf(':')).strip().toLowerCase(Locale.ROOT);
                List<String> words =
                        List.of(line.substring(line.indexOf(':') + 1).strip().split("\\s+"));
                switch (key) {
                    case "types" -> types = words;
                    case "uris" -> uris = words;
                    case "suites" -> suites = words;
                    case "enabled" -> enabled = !words.get(0).equalsIgnoreCase("no");
                    default -> {}
                }
            }
            if (enabled && types.contains("deb")) {
                entries.add(new Entry(uris, suites));
            }
        }
        return entries;
    }

    /** One-line entries: {@code deb [options] URI SUITE COMPONENT...}. */
    static List<Entry> oneLine(String text) {
        List<Entry> entries = new ArrayList<>();
        for (String line : text.lines().toList()) {
            String l = line.strip();
            if (!l.startsWith("deb ") && !l.startsWith("deb\t")) {
                continue;
            }
            l = l.substring(3).strip();
            if (l.startsWith("[")) {
                int close = l.indexOf(']');
                if (close < 0) {
                    continue;
                }
                l = l.substring(close + 1).strip();
            }
            String[] words = l.split("\\s+");
            if (words.length >= 2) {
                entries.add(new Entry(List.of(words[0]), List.of(words[1])));
            }
        }
        return entries;
    }
}
