// JavaRef prints the symbols of Java files by the rules of tracewiki's SPEC
// 1.3, as javac's own parser sees them (com.sun.source.tree): the reference
// of TestConformance. It is run from source: java JavaRef.java < PATHS.
//
// PATHS lists the files to read, one a line; the output is one JSON object
// per line and file, in the same order: {"path", "symbols": [[name, kind,
// start, end]], "ambiguous": [names]}, or {"path", "error"} when javac
// reports a syntax error.
//
// Symbols: the types of the file and of type bodies at any depth (not in
// method bodies, initializers or anonymous classes) named Outer.Inner; their
// methods Type.m and constructors Type.Type. Ranges run from the start of
// the modifiers (annotations included, the doc comment not) to the end of
// the declaration, as javac's source positions say. Methods and
// constructors of one name in one type are one symbol from the first one's
// first line to the last one's last line; any other name declared twice is
// ambiguous. Kind: "test" for a method annotated @Test, @ParameterizedTest,
// @RepeatedTest, @TestFactory, @TestTemplate or @Theory, a public method
// named test... of a class that extends TestCase, a public method of a
// class annotated @Test, and for a type that declares such a method;
// otherwise "type" or "method".
import com.sun.source.tree.*;
import com.sun.source.util.*;
import java.io.*;
import java.nio.charset.StandardCharsets;
import java.util.*;
import javax.tools.*;

public class JavaRef {
    static final Set<String> TEST_ANNOTATIONS = Set.of("Test", "ParameterizedTest", "RepeatedTest",
            "TestFactory", "TestTemplate", "Theory");

    static final class Decl {
        String name;
        boolean type, test;
        long start, end;
        int count = 1, types;
    }

    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        List<String> paths = new ArrayList<>();
        for (String line; (line = in.readLine()) != null; ) {
            if (!line.isBlank()) paths.add(line.strip());
        }
        PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), false, StandardCharsets.UTF_8);
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        // Batches keep memory bounded and the compiler warm.
        for (int i = 0; i < paths.size(); i += 200) {
            List<String> batch = paths.subList(i, Math.min(paths.size(), i + 200));
            for (String line : parse(javac, batch)) out.println(line);
        }
        out.flush();
    }

    static List<String> parse(JavaCompiler javac, List<String> paths) throws IOException {
        DiagnosticCollector<JavaFileObject> diags = new DiagnosticCollector<>();
        StandardJavaFileManager fm = javac.getStandardFileManager(diags, Locale.ROOT, StandardCharsets.UTF_8);
        List<File> files = new ArrayList<>();
        for (String p : paths) files.add(new File(p));
        JavacTask task = (JavacTask) javac.getTask(null, fm, diags, List.of("-proc:none", "-Xlint:none", "-nowarn"), null,
                fm.getJavaFileObjectsFromFiles(files));
        Map<String, CompilationUnitTree> units = new HashMap<>();
        for (CompilationUnitTree u : task.parse()) units.put(new File(u.getSourceFile().toUri()).getPath(), u);
        Map<String, String> errors = new HashMap<>();
        for (Diagnostic<? extends JavaFileObject> d : diags.getDiagnostics()) {
            if (d.getKind() != Diagnostic.Kind.ERROR || d.getSource() == null) continue;
            String p = new File(d.getSource().toUri()).getPath();
            errors.putIfAbsent(p, d.getLineNumber() + ": " + d.getMessage(Locale.ROOT));
        }
        SourcePositions sp = Trees.instance(task).getSourcePositions();
        List<String> lines = new ArrayList<>();
        for (String p : paths) {
            String abs = new File(p).getAbsoluteFile().toPath().normalize().toString();
            CompilationUnitTree u = units.get(abs);
            if (u == null) u = units.get(p);
            String err = errors.containsKey(abs) ? errors.get(abs) : errors.get(p);
            if (u == null || err != null) {
                lines.add("{\"path\":" + q(p) + ",\"error\":" + q(err == null ? "not parsed" : err) + "}");
                continue;
            }
            Map<String, Decl> decls = new LinkedHashMap<>();
            for (Tree t : u.getTypeDecls()) {
                if (t instanceof ClassTree) type(u, sp, (ClassTree) t, "", decls);
            }
            StringBuilder b = new StringBuilder("{\"path\":" + q(p) + ",\"symbols\":[");
            List<String> amb = new ArrayList<>();
            boolean first = true;
            LineMap lm = u.getLineMap();
            for (Decl d : decls.values()) {
                if (d.count > 1 && d.types > 0) {
                    amb.add(d.name);
                    continue;
                }
                if (!first) b.append(',');
                first = false;
                String kind = d.test ? "test" : d.type ? "type" : "method";
                b.append('[').append(q(d.name)).append(',').append(q(kind)).append(',')
                        .append(lm.getLineNumber(d.start)).append(',').append(lm.getLineNumber(d.end - 1)).append(']');
            }
            Collections.sort(amb);
            b.append("],\"ambiguous\":[");
            for (int i = 0; i < amb.size(); i++) b.append(i > 0 ? "," : "").append(q(amb.get(i)));
            lines.add(b.append("]}").toString());
        }
        fm.close();
        return lines;
    }

    static String simple(AnnotationTree a) {
        String s = a.getAnnotationType().toString();
        return s.substring(s.lastIndexOf('.') + 1);
    }

    static boolean annotated(ModifiersTree m, Set<String> names) {
        for (AnnotationTree a : m.getAnnotations()) if (names.contains(simple(a))) return true;
        return false;
    }

    // type adds a type declaration and its members; it reports whether the
    // type declares a test method.
    static void type(CompilationUnitTree u, SourcePositions sp, ClassTree c, String outer, Map<String, Decl> decls) {
        String name = outer.isEmpty() ? c.getSimpleName().toString() : outer + "." + c.getSimpleName();
        Decl td = add(decls, name, true, sp.getStartPosition(u, c), sp.getEndPosition(u, c));
        boolean junit3 = c.getExtendsClause() != null && c.getExtendsClause().toString().matches("(.*\\.)?TestCase");
        boolean testng = annotated(c.getModifiers(), Set.of("Test"));
        boolean tests = false;
        for (Tree m : c.getMembers()) {
            if (m instanceof ClassTree) {
                type(u, sp, (ClassTree) m, name, decls);
            } else if (m instanceof MethodTree) {
                MethodTree mt = (MethodTree) m;
                boolean ctor = mt.getName().contentEquals("<init>");
                String mname = ctor ? c.getSimpleName().toString() : mt.getName().toString();
                boolean pub = mt.getModifiers().getFlags().contains(javax.lang.model.element.Modifier.PUBLIC);
                boolean test = annotated(mt.getModifiers(), TEST_ANNOTATIONS)
                        || junit3 && pub && mname.startsWith("test")
                        || testng && pub && !ctor;
                tests |= test;
                long start = sp.getStartPosition(u, mt);
                // A compact constructor's position is its name.
                Decl d = add(decls, name + "." + mname, false, start, sp.getEndPosition(u, mt));
                d.test |= test;
            }
        }
        td.test |= tests;
    }

    static Decl add(Map<String, Decl> decls, String name, boolean type, long start, long end) {
        Decl d = decls.get(name);
        if (d == null) {
            d = new Decl();
            d.name = name;
            d.type = type;
            d.types = type ? 1 : 0;
            d.start = start;
            d.end = end;
            decls.put(name, d);
            return d;
        }
        d.count++;
        if (type) d.types++;
        d.start = Math.min(d.start, start);
        d.end = Math.max(d.end, end);
        return d;
    }

    static String q(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char ch : s.toCharArray()) {
            switch (ch) {
                case '"': b.append("\\\""); break;
                case '\\': b.append("\\\\"); break;
                case '\n': b.append("\\n"); break;
                default:
                    if (ch < 0x20) b.append(String.format("\\u%04x", (int) ch));
                    else b.append(ch);
            }
        }
        return b.append('"').toString();
    }
}
