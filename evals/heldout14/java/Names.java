// Round 14 verification helper (docs/evals.md, "Round 14 (sealed)"; round 12's Names.java, unchanged but for this line). Needs a JDK 11 or later
// (17 was used; run as a single source file, nothing is built):
//   java evals/heldout14/java/Names.java decls ROOT            every class, interface, enum,
//        method and constructor of the .java files under ROOT, with its 1-based line and the
//        class around it (javac's parser, com.sun.source.tree; no attribution)
//   java evals/heldout14/java/Names.java refs ROOT NAME        every call of a method NAME,
//        `new NAME`, `extends`/`implements NAME` and other identifier or member-select
//        NAME in code (not in comments or strings), with the method around it
import com.sun.source.tree.*;
import com.sun.source.util.*;
import javax.tools.*;
import java.nio.file.*;
import java.util.*;

public class Names {
    public static void main(String[] args) throws Exception {
        String mode = args[0];
        Path root = Paths.get(args[1]).toAbsolutePath().normalize();
        String name = args.length > 2 ? args[2] : null;
        List<Path> files = new ArrayList<>();
        try (var s = Files.walk(root)) { s.filter(p -> p.toString().endsWith(".java")).sorted().forEach(files::add); }
        JavaCompiler jc = ToolProvider.getSystemJavaCompiler();
        StandardJavaFileManager fm = jc.getStandardFileManager(null, null, null);
        JavacTask task = (JavacTask) jc.getTask(null, fm, d -> {}, List.of("-proc:none"), null, fm.getJavaFileObjectsFromPaths(files));
        SourcePositions pos = Trees.instance(task).getSourcePositions();
        List<String> out = new ArrayList<>();
        for (CompilationUnitTree cu : task.parse()) {
            String rel = root.relativize(Paths.get(cu.getSourceFile().toUri())).toString();
            LineMap lm = cu.getLineMap();
            String text = cu.getSourceFile().getCharContent(true).toString();
            new TreePathScanner<Void, Void>() {
                Deque<String> scope = new ArrayDeque<>();
                long line(Tree t) { return lm.getLineNumber(pos.getStartPosition(cu, t)); }
                // the line of the declared name, after any annotations and modifiers
                long nameLine(Tree t, String n, String after) {
                    long start = pos.getStartPosition(cu, t);
                    int i = text.indexOf(after.isEmpty() ? n + "(" : after, (int) start);
                    if (!after.isEmpty() && i >= 0) i = text.indexOf(n, i);
                    return i < 0 || i > pos.getEndPosition(cu, t) ? line(t) : lm.getLineNumber(i);
                }
                String where() { return scope.isEmpty() ? "<top>" : String.join(".", (Iterable<String>) () -> scope.descendingIterator()); }
                @Override public Void visitClass(ClassTree t, Void v) {
                    String n = t.getSimpleName().toString();
                    if (mode.equals("decls")) out.add(rel + ":" + nameLine(t, n, t.getKind().toString().toLowerCase().replace("annotation_type", "@interface") + " ") + "\t" + t.getKind().toString().toLowerCase() + "\t" + n + "\t" + where());
                    if (name != null) {
                        if (t.getExtendsClause() != null && t.getExtendsClause().toString().replaceAll("<.*", "").endsWith(name))
                            out.add(rel + ":" + nameLine(t, n, t.getKind().toString().toLowerCase() + " ") + "\textends\t" + n + "\tin " + where());
                        for (Tree i : t.getImplementsClause())
                            if (i.toString().replaceAll("<.*", "").endsWith(name)) out.add(rel + ":" + nameLine(t, n, t.getKind().toString().toLowerCase() + " ") + "\timplements\t" + n + "\tin " + where());
                    }
                    scope.push(n); super.visitClass(t, v); scope.pop(); return null;
                }
                @Override public Void visitMethod(MethodTree t, Void v) {
                    String n = t.getName().toString();
                    long l = nameLine(t, n.equals("<init>") ? scope.peek() : n, "");
                    if (n.equals("<init>")) n = scope.peek() + "(ctor)";
                    if (mode.equals("decls")) out.add(rel + ":" + l + "\tmethod\t" + n + "\t" + where());
                    scope.push(n + "@" + l); super.visitMethod(t, v); scope.pop(); return null;
                }
                @Override public Void visitMethodInvocation(MethodInvocationTree t, Void v) {
                    ExpressionTree s = t.getMethodSelect();
                    String n = s instanceof MemberSelectTree ? ((MemberSelectTree) s).getIdentifier().toString() : s.toString();
                    if (mode.equals("refs") && n.equals(name)) out.add(rel + ":" + lm.getLineNumber(pos.getEndPosition(cu, s)) + "\tcall\t" + s + "\tin " + where());
                    return super.visitMethodInvocation(t, v);
                }
                @Override public Void visitNewClass(NewClassTree t, Void v) {
                    if (mode.equals("refs") && t.getIdentifier().toString().replaceAll("<.*", "").endsWith(name)) out.add(rel + ":" + line(t) + "\tnew\t" + t.getIdentifier() + "\tin " + where());
                    return super.visitNewClass(t, v);
                }
                @Override public Void visitIdentifier(IdentifierTree t, Void v) {
                    if (mode.equals("refs") && t.getName().contentEquals(name)) out.add(rel + ":" + line(t) + "\tident\t" + name + "\tin " + where());
                    return super.visitIdentifier(t, v);
                }
                @Override public Void visitMemberSelect(MemberSelectTree t, Void v) {
                    if (mode.equals("refs") && t.getIdentifier().contentEquals(name)) out.add(rel + ":" + lm.getLineNumber(pos.getEndPosition(cu, t)) + "\tselect\t" + t + "\tin " + where());
                    return super.visitMemberSelect(t, v);
                }
            }.scan(cu, null);
        }
        new LinkedHashSet<>(out).forEach(System.out::println);
    }
}
