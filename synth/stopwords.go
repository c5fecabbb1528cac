package synth

import "strings"

// stopWordLists are the stop words of github.com/kljensen/snowball's
// english.IsStopWord and spanish.IsStopWord, which can only be asked about
// one word. The build writes them into the client index (SPEC 5: the page
// has no stemmer and no stop list of its own), so that a stop word the
// wiki never uses is dropped from a query on the page as in Go, not
// corrected to a word one edit away. TestStopWordLists checks each word
// against the library.
var stopWordLists = map[string][]string{
	"en": strings.Fields(`
	a about above after again against all am an and any are as at be because been before being below
	between both but by can did do does doing don down during each few for from further had has have
	having he her here hers herself him himself his how i if in into is it its itself just me more most
	my myself no nor not now of off on once only or other our ours ourselves out over own s same she
	should so some such t than that the their theirs them themselves then there these they this those
	through to too under until up very was we were what when where which while who whom why will with
	you your yours yourself yourselves
`),
	"es": strings.Fields(`
	de la que el en y a los del se las por un para con no una su al lo como más pero sus le ya o este sí
	porque esta entre cuando muy sin sobre también me hasta hay donde quien desde todo nos durante todos
	uno les ni contra otros ese eso ante ellos e esto mí antes algunos qué unos yo otro otras otra él
	tanto esa estos mucho quienes nada muchos cual poco ella estar estas algunas algo nosotros mi mis tú
	te ti tu tus ellas nosotras vosostros vosostras os mío mía míos mías tuyo tuya tuyos tuyas suyo suya
	suyos suyas nuestro nuestra nuestros nuestras vuestro vuestra vuestros vuestras esos esas estoy
	estás está estamos estáis están esté estés estemos estéis estén estaré estarás estará estaremos
	estaréis estarán estaría estarías estaríamos estaríais estarían estaba estabas estábamos estabais
	estaban estuve estuviste estuvo estuvimos estuvisteis estuvieron estuviera estuvieras estuviéramos
	estuvierais estuvieran estuviese estuvieses estuviésemos estuvieseis estuviesen estando estado
	estada estados estadas estad he has ha hemos habéis han haya hayas hayamos hayáis hayan habré habrás
	habrá habremos habréis habrán habría habrías habríamos habríais habrían había habías habíamos
	habíais habían hube hubiste hubo hubimos hubisteis hubieron hubiera hubieras hubiéramos hubierais
	hubieran hubiese hubieses hubiésemos hubieseis hubiesen habiendo habido habida habidos habidas soy
	eres es somos sois son sea seas seamos seáis sean seré serás será seremos seréis serán sería serías
	seríamos seríais serían era eras éramos erais eran fui fuiste fue fuimos fuisteis fueron fuera
	fueras fuéramos fuerais fueran fuese fueses fuésemos fueseis fuesen sintiendo sentido sentida
	sentidos sentidas siente sentid tengo tienes tiene tenemos tenéis tienen tenga tengas tengamos
	tengáis tengan tendré tendrás tendrá tendremos tendréis tendrán tendría tendrías tendríamos
	tendríais tendrían tenía tenías teníamos teníais tenían tuve tuviste tuvo tuvimos tuvisteis tuvieron
	tuviera tuvieras tuviéramos tuvierais tuvieran tuviese tuvieses tuviésemos tuvieseis tuviesen
	teniendo tenido tenida tenidos tenidas tened
`),
}
