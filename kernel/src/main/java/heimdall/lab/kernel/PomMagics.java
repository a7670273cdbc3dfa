package heimdall.lab.kernel;

import io.github.spencerpark.jupyter.kernel.magic.registry.CellMagic;
import io.github.spencerpark.jupyter.kernel.magic.registry.LineMagic;
import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.eclipse.aether.graph.Dependency;
import org.eclipse.aether.graph.Exclusion;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.InputSource;
import org.xml.sax.SAXException;

/**
 * IJava's {@code loadFromPOM}: the dependencies of a POM added to the class path, as {@code %maven}
 * adds them. The cell magic takes the body as a POM: a whole {@code <project>}, or the fragments a
 * README shows ({@code <dependency>} and {@code <repository>} elements, loose or inside
 * {@code <dependencies>}/{@code <repositories>}); the line magic reads a POM file. Either takes
 * scopes to keep (default {@code compile} and {@code runtime}; IJava's default also names {@code system} and
 * {@code import}, which name no jar to download: a dependency in them is refused with the reason).
 *
 * <p>The POM's own repositories and Maven Central are asked, not those added with {@code %mavenRepo}
 * (IJava's rule); each is checked as {@code %mavenRepo} checks it. The XML is parsed with no DOCTYPE,
 * no external entity and no XInclude: a pasted POM cannot make the kernel read a file or a URL.
 * {@code ${name}} is replaced from the POM's {@code <properties>}; anything else unresolved is an error.
 */
public final class PomMagics {
    /** IJava's default adds system and import, which name no jar to download: asked for, they are refused. */
    private static final Set<String> DEFAULT_SCOPES = Set.of("compile", "runtime");

    private static final Pattern PROPERTY = Pattern.compile("\\$\\{([^}]*)}");
    private static final String FRAGMENT = "heimdall-pom-fragment";

    private final MavenResolver resolver;
    private final Consumer<String> addToClasspath;

    PomMagics(MavenResolver resolver, Consumer<String> addToClasspath) {
        this.resolver = resolver;
        this.addToClasspath = addToClasspath;
    }

    /** {@code %loadFromPOM FILE [SCOPE...]}: the jar files added. */
    @LineMagic("loadFromPOM")
    public List<String> loadFromPomFile(List<String> args) throws IOException, MavenResolver.ResolutionFailed {
        if (args.isEmpty()) {
            throw new IllegalArgumentException("usage: %loadFromPOM POM_FILE [SCOPE ...]");
        }
        Path file = Path.of(args.get(0));
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException("no POM file at " + file.toAbsolutePath());
        }
        return load(Files.readString(file), args.subList(1, args.size()), file.toString());
    }

    /** {@code %%loadFromPOM [SCOPE...]} over a POM or POM fragments: the jar files added. */
    @CellMagic("loadFromPOM")
    public List<String> loadFromPomCell(List<String> args, String body) throws MavenResolver.ResolutionFailed {
        return load(body, args, "the cell");
    }

    private List<String> load(String xml, List<String> scopeArgs, String where) throws MavenResolver.ResolutionFailed {
        Set<String> scopes = scopeArgs.isEmpty() ? DEFAULT_SCOPES : new LinkedHashSet<>(scopeArgs);
        Element root = parse(xml, where);
        Map<String, String> properties = new LinkedHashMap<>();
        for (Element props : children(root, "properties")) {
            for (Element p : children(props, null)) {
                properties.put(p.getTagName(), p.getTextContent().strip());
            }
        }
        Map<String, String> repositories = new LinkedHashMap<>();
        for (Element r : nested(root, "repositories", "repository")) {
            String id = required(r, "id", properties, where);
            String url = required(r, "url", properties, where);
            try {
                MavenResolver.checkRepository(id, url); // before any dependency is resolved
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(where + ": <repository> " + id + ": " + e.getMessage());
            }
            repositories.put(id, url);
        }
        List<Dependency> dependencies = new ArrayList<>();
        for (Element d : nested(root, "dependencies", "dependency")) {
            String scope = optional(d, "scope", properties, where, "compile");
            if (!scopes.contains(scope)) {
                continue;
            }
            String coordinates = required(d, "groupId", properties, where) + ":"
                    + required(d, "artifactId", properties, where)
                    + ":" + optional(d, "type", properties, where, "jar")
                    + (text(d, "classifier") == null ? "" : ":" + optional(d, "classifier", properties, where, ""))
                    + ":" + required(d, "version", properties, where);
            if (scope.equals("system") || scope.equals("import")) {
                throw new IllegalArgumentException(where + ": dependency " + coordinates + " has scope " + scope
                        + ", which names no jar to download (leave it out, or list the scopes to keep)");
            }
            List<Exclusion> exclusions = new ArrayList<>();
            for (Element x : nested(d, "exclusions", "exclusion")) {
                exclusions.add(new Exclusion(
                        required(x, "groupId", properties, where),
                        required(x, "artifactId", properties, where),
                        "*",
                        "*"));
            }
            dependencies.add(new Dependency(MavenResolver.parse(coordinates), "runtime", false, exclusions));
        }
        if (dependencies.isEmpty()) {
            throw new IllegalArgumentException(where + " names no <dependency> in the scopes " + scopes);
        }
        List<String> added = new ArrayList<>();
        for (Path jar : resolver.resolve(dependencies, repositories)) {
            addToClasspath.accept(jar.toString());
            added.add(jar.toString());
        }
        System.out.println(
                "loadFromPOM: " + dependencies.size() + (dependencies.size() == 1 ? " dependency, " : " dependencies, ")
                        + added.size() + (added.size() == 1 ? " jar" : " jars"));
        added.forEach(j -> System.out.println("  " + j));
        return added;
    }

    /** The POM's {@code <project>}, or a made-up root around fragments. */
    private static Element parse(String xml, String where) {
        String body = xml.strip();
        boolean whole = body.startsWith("<?xml") || body.startsWith("<project");
        String text = whole ? body : "<" + FRAGMENT + ">" + body + "</" + FRAGMENT + ">";
        try {
            Element root =
                    builder().parse(new InputSource(new StringReader(text))).getDocumentElement();
            if (whole && !root.getTagName().equals("project")) {
                throw new IllegalArgumentException(
                        where + ": the POM's root element is <" + root.getTagName() + ">, not <project>");
            }
            return root;
        } catch (SAXException e) {
            throw new IllegalArgumentException(where + " is not well-formed POM XML: " + e.getMessage());
        } catch (IOException e) {
            throw new IllegalStateException(e); // a StringReader does not fail
        }
    }

    private static DocumentBuilder builder() {
        try {
            DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
            f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            f.setFeature("http://xml.org/sax/features/external-general-entities", false);
            f.setFeature("http://xml.org/sax/features/external-parameter-entities", false);
            f.setAttribute(XMLConstants.ACCESS_EXTERNAL_DTD, "");
            f.setAttribute(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
            f.setXIncludeAware(false);
            f.setExpandEntityReferences(false);
            DocumentBuilder b = f.newDocumentBuilder();
            b.setErrorHandler(null); // errors are thrown, not printed
            return b;
        } catch (ParserConfigurationException e) {
            throw new IllegalStateException("the JDK's XML parser lacks a safety feature", e);
        }
    }

    /** {@code name} elements directly in {@code parent}, and those in its {@code wrapper} children. */
    private static List<Element> nested(Element parent, String wrapper, String name) {
        List<Element> out = new ArrayList<>(children(parent, name));
        for (Element w : children(parent, wrapper)) {
            out.addAll(children(w, name));
        }
        return out;
    }

    private static List<Element> children(Element parent, String name) {
        List<Element> out = new ArrayList<>();
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e && (name == null || e.getTagName().equals(name))) {
                out.add(e);
            }
        }
        return out;
    }

    private static String text(Element parent, String name) {
        List<Element> c = children(parent, name);
        return c.isEmpty() ? null : c.get(0).getTextContent().strip();
    }

    private static String required(Element parent, String name, Map<String, String> properties, String where) {
        String v = text(parent, name);
        if (v == null || v.isEmpty()) {
            throw new IllegalArgumentException(where + ": a <" + parent.getTagName() + "> has no <" + name + ">");
        }
        return interpolate(v, properties, where, name);
    }

    private static String optional(
            Element parent, String name, Map<String, String> properties, String where, String otherwise) {
        String v = text(parent, name);
        return v == null || v.isEmpty() ? otherwise : interpolate(v, properties, where, name);
    }

    private static String interpolate(String value, Map<String, String> properties, String where, String field) {
        Matcher m = PROPERTY.matcher(value);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String v = properties.get(m.group(1));
            if (v == null || v.contains("${")) {
                throw new IllegalArgumentException(where + ": <" + field + "> " + value + ": no property " + m.group(1)
                        + " in the POM's <properties>");
            }
            m.appendReplacement(out, Matcher.quoteReplacement(v));
        }
        m.appendTail(out);
        return out.toString();
    }
}
