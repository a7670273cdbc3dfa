package heimdall.lab.probe;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Iterator;
import java.util.Map;

/**
 * Writes an object one field a line, and the elements of its array fields one a line, each compact:
 * checked-in profiles and observations then diff by syscall rather than by scattered brace lines.
 */
final class CompactJson {
    private static final ObjectMapper JSON = new ObjectMapper();

    private CompactJson() {}

    static String write(ObjectNode root) {
        StringBuilder sb = new StringBuilder("{\n");
        Iterator<Map.Entry<String, JsonNode>> fields = root.fields();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> f = fields.next();
            sb.append("  ")
                    .append(compact(JSON.getNodeFactory().textNode(f.getKey())))
                    .append(": ");
            JsonNode v = f.getValue();
            if (v.isArray() && v.size() > 0 && v.get(0).isContainerNode()) {
                sb.append("[\n");
                for (int i = 0; i < v.size(); i++) {
                    sb.append("    ").append(compact(v.get(i))).append(i + 1 < v.size() ? ",\n" : "\n");
                }
                sb.append("  ]");
            } else {
                sb.append(compact(v));
            }
            sb.append(fields.hasNext() ? ",\n" : "\n");
        }
        return sb.append("}\n").toString();
    }

    private static String compact(JsonNode n) {
        try {
            return JSON.writeValueAsString(n);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
