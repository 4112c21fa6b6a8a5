package dev.whyslow.agent.instrument;

import static org.assertj.core.api.Assertions.assertThat;

import dev.whyslow.agent.config.ProbeSet;
import dev.whyslow.protocol.Site;
import dev.whyslow.protocol.SiteKind;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.Label;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.MethodNode;
import sample.fixture.LoopShapes;

class LoopAnalysisTest {
  private static final ProbeSet BRANCHES = new ProbeSet(true, false);

  @Test
  void javacForLoopConditionIsALoopBranch() throws IOException {
    assertThat(branches("forLoop")).extracting(Site::kind).containsExactly(SiteKind.LOOP_BRANCH);
    assertThat(branches("forLoop")).extracting(Site::loopId).containsExactly(0);
  }

  @Test
  void breakOutOfWhileTrueIsALoopBranch() throws IOException {
    List<Site> sites = branches("whileTrueWithBreak");
    assertThat(sites).extracting(Site::kind).containsExactly(SiteKind.LOOP_BRANCH);
    assertThat(sites).extracting(Site::loopId).containsExactly(0);
  }

  @Test
  void nestedLoopsGetTheirOwnIdsAndInnerBranchesBelongToTheInnerLoop() throws IOException {
    List<Site> sites = branches("nested");
    assertThat(sites)
        .extracting(Site::kind)
        .containsExactly(SiteKind.LOOP_BRANCH, SiteKind.LOOP_BRANCH, SiteKind.BRANCH);
    int outer = sites.get(0).loopId();
    int inner = sites.get(1).loopId();
    assertThat(outer).isNotEqualTo(inner);
    assertThat(sites.get(2).loopId()).isEqualTo(inner);
  }

  @Test
  void branchOutsideAnyLoopIsAPlainBranchWithoutLoop() throws IOException {
    List<Site> sites = branches("noLoop");
    assertThat(sites).extracting(Site::kind).containsExactly(SiteKind.BRANCH);
    assertThat(sites).extracting(Site::loopId).containsExactly(-1);
  }

  @Test
  void bottomTestedDoWhileIsALoopBranch() throws IOException {
    assertThat(branches("doWhile")).extracting(Site::kind).containsExactly(SiteKind.LOOP_BRANCH);
  }

  @Test
  void exceptionEdgesKeepTheHandlerInsideTheLoop() throws IOException {
    List<Site> sites = branches("tryInLoop");
    assertThat(sites).extracting(Site::kind).containsExactly(SiteKind.LOOP_BRANCH);
  }

  @Test
  void loopWithItsTestAtTheBottomAfterAnEntryJumpIsFoundFromTheGraph() {
    // The layout other compilers use: goto TEST; BODY: i++; TEST: if (i < n) goto BODY.
    MethodNode m = new MethodNode(Opcodes.ACC_STATIC, "bottom", "(I)I", null, null);
    Label body = new Label();
    Label test = new Label();
    m.visitCode();
    m.visitInsn(Opcodes.ICONST_0);
    m.visitVarInsn(Opcodes.ISTORE, 1);
    m.visitJumpInsn(Opcodes.GOTO, test);
    m.visitLabel(body);
    m.visitIincInsn(1, 1);
    m.visitLabel(test);
    m.visitVarInsn(Opcodes.ILOAD, 1);
    m.visitVarInsn(Opcodes.ILOAD, 0);
    m.visitJumpInsn(Opcodes.IF_ICMPLT, body);
    m.visitVarInsn(Opcodes.ILOAD, 1);
    m.visitInsn(Opcodes.IRETURN);
    m.visitMaxs(2, 2);
    m.visitEnd();
    List<ProbePoint> points = MethodPlanner.plan("x.Bottom", "Bottom.java", m, BRANCHES);
    assertThat(points).hasSize(1);
    assertThat(points.get(0).site().kind()).isEqualTo(SiteKind.LOOP_BRANCH);
    assertThat(points.get(0).site().loopId()).isEqualTo(0);
    assertThat(LoopAnalysis.of(m).loops()).hasSize(1);
  }

  @Test
  void branchInsideALoopThatDoesNotDecideItIsAPlainBranchOfThatLoop() {
    // for (i = 0; i < n; i++) { if (i == 5) x++; }  laid out by hand, test at the top.
    MethodNode m = new MethodNode(Opcodes.ACC_STATIC, "inner", "(I)I", null, null);
    Label head = new Label();
    Label skip = new Label();
    Label exit = new Label();
    m.visitCode();
    m.visitInsn(Opcodes.ICONST_0);
    m.visitVarInsn(Opcodes.ISTORE, 1);
    m.visitInsn(Opcodes.ICONST_0);
    m.visitVarInsn(Opcodes.ISTORE, 2);
    m.visitLabel(head);
    m.visitVarInsn(Opcodes.ILOAD, 1);
    m.visitVarInsn(Opcodes.ILOAD, 0);
    m.visitJumpInsn(Opcodes.IF_ICMPGE, exit);
    m.visitVarInsn(Opcodes.ILOAD, 1);
    m.visitIntInsn(Opcodes.BIPUSH, 5);
    m.visitJumpInsn(Opcodes.IF_ICMPNE, skip);
    m.visitIincInsn(2, 1);
    m.visitLabel(skip);
    m.visitIincInsn(1, 1);
    m.visitJumpInsn(Opcodes.GOTO, head);
    m.visitLabel(exit);
    m.visitVarInsn(Opcodes.ILOAD, 2);
    m.visitInsn(Opcodes.IRETURN);
    m.visitMaxs(2, 3);
    m.visitEnd();
    List<ProbePoint> points = MethodPlanner.plan("x.Inner", "Inner.java", m, BRANCHES);
    assertThat(points)
        .extracting(p -> p.site().kind())
        .containsExactly(SiteKind.LOOP_BRANCH, SiteKind.BRANCH);
    assertThat(points).extracting(p -> p.site().loopId()).containsExactly(0, 0);
  }

  private static List<Site> branches(String method) throws IOException {
    ClassNode node = new ClassNode();
    new ClassReader(LoopShapes.class.getName()).accept(node, ClassReader.EXPAND_FRAMES);
    MethodNode m =
        node.methods.stream().filter(x -> x.name.equals(method)).findFirst().orElseThrow();
    return MethodPlanner.plan(LoopShapes.class.getName(), node.sourceFile, m, BRANCHES).stream()
        .map(ProbePoint::site)
        .toList();
  }
}
